import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Dossier, Topic } from '../../protocol/index.ts';
import {
  dossierSentences,
  liveSentences,
  retiredSentences,
  sentenceValidity,
  withoutStruck,
} from '../../src/core/dossiers/index.ts';
import type { Validity } from '../../src/core/memory/index.ts';
import { isPutAside } from '../../src/core/index.ts';
import { findTopic } from '../../src/core/topics/index.ts';
import { CanvasStore, canvasesDirectory, readPutAsides } from '../fs/index.ts';
import type { IndexDatabase } from '../index/index.ts';
import { memoryDirectory } from '../memory/index.ts';
import { TopicStore } from '../topics/index.ts';
import { dossierDatabasePath } from './dossier-database.ts';
import { openDossierStore } from './dossier-store.ts';
import { liveTurnKeys } from './dossier-turns.ts';
import { WeftError } from '../../protocol/index.ts';

export interface TopicDossier {
  topic: Topic;
  /** The stored dossier without the sentences the person struck; null before its first build. */
  dossier: Dossier | null;
  /** Ids of the sentences whose sources are all archived or deleted. */
  retired: string[];
  /** #29.4: when each sentence holds, by id (core `sentenceValidity` over the stored versions; `to` null: still). */
  validity: Record<string, Validity>;
}

export interface TopicSummary extends Topic {
  turns: number;
  dossierVersion: number | null;
}

function topicStore(home: string): TopicStore {
  return new TopicStore({ directory: memoryDirectory(home), now: Date.now, newId: randomUUID });
}

/** Topics with their labelled-turn counts and dossier versions, for `weft topics`-style listings and MCP. */
export async function listTopicSummaries(home: string): Promise<TopicSummary[]> {
  const { record } = await topicStore(home).read();
  // A listing never creates the dossier store: without its file no topic has a dossier yet.
  const store = existsSync(dossierDatabasePath(home)) ? openDossierStore(home) : null;
  try {
    const versions = new Map((store?.topics() ?? []).map((entry) => [entry.topicId, entry.version]));
    const counts = new Map<string, number>();
    for (const label of record.labels) for (const id of label.topicIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    return record.topics.map((topic) => ({
      ...topic,
      turns: counts.get(topic.id) ?? 0,
      dossierVersion: versions.get(topic.id) ?? null,
    }));
  } finally {
    store?.close();
  }
}

/**
 * One topic's dossier by topic id or name (C15), for the CLI and MCP: the stored dossier and which sentences have
 * lost every source (`liveOnly` leaves them out, as recall does).
 */
export async function readTopicDossier(
  home: string,
  topicName: string,
  database: IndexDatabase | null,
  liveOnly = false,
): Promise<TopicDossier> {
  const { record } = await topicStore(home).read();
  const topic = findTopic(record, topicName);
  if (!topic) throw new WeftError('topic-unknown', `no topic "${topicName}" (weft topics lists them)`, 404);
  // A read never creates the store: no file means no dossier yet.
  if (!existsSync(dossierDatabasePath(home))) return { topic, dossier: null, retired: [], validity: {} };
  const store = openDossierStore(home);
  try {
    const stored = store.read(topic.id);
    if (!stored) return { topic, dossier: null, retired: [], validity: {} };
    // A struck sentence leaves every read of the dossier (issue 29.2), not only recall.
    const putAsides = readPutAsides(home);
    const isStruck = (text: string) => isPutAside(putAsides, 'dossier-sentence', text);
    const dossier = withoutStruck(stored, isStruck);
    const keys = [...new Set(dossierSentences(dossier).flatMap((sentence) => sentence.citations))];
    const live = await liveTurnKeys(keys, {
      database,
      canvases: new CanvasStore({ directory: canvasesDirectory(home) }),
      putAsides,
    });
    const isLive = (key: string) => live.has(key);
    return {
      topic,
      dossier: liveOnly ? liveSentences(dossier, isLive) : dossier,
      retired: retiredSentences(dossier, isLive),
      validity: Object.fromEntries(sentenceValidity(store.versions(topic.id), stored.version, isStruck)),
    };
  } finally {
    store.close();
  }
}
