import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Dossier, Topic, TopicRecord } from '../../protocol/index.ts';
import {
  dossierSentences,
  liveSentences,
  retiredSentences,
  sentenceValidity,
  withoutStruck,
} from '../../src/core/dossiers/index.ts';
import type { Validity } from '../../src/core/memory/index.ts';
import { isPutAside, type PutAsides } from '../../src/core/index.ts';
import { findTopic } from '../../src/core/topics/index.ts';
import { CanvasStore, canvasesDirectory, readPutAsides } from '../fs/index.ts';
import type { IndexDatabase, TeamMemory } from '../index/index.ts';
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

/**
 * Topics with their labelled-turn counts and dossier versions, for `weft topics`-style listings and MCP; from the
 * team index when `team` is given (what every machine pushed, as this person may read it).
 */
export async function listTopicSummaries(home: string, team: TeamMemory | null = null): Promise<TopicSummary[]> {
  if (team) return topicSummaries(await team.topics(), await team.dossierTopics());
  const { record } = await topicStore(home).read();
  // A listing never creates the dossier store: without its file no topic has a dossier yet.
  const store = existsSync(dossierDatabasePath(home)) ? openDossierStore(home) : null;
  try {
    return topicSummaries(record, store?.topics() ?? []);
  } finally {
    store?.close();
  }
}

function topicSummaries(record: TopicRecord, dossiers: { topicId: string; version: number }[]): TopicSummary[] {
  const versions = new Map(dossiers.map((entry) => [entry.topicId, entry.version]));
  const counts = new Map<string, number>();
  for (const label of record.labels) for (const id of label.topicIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  return record.topics.map((topic) => ({
    ...topic,
    turns: counts.get(topic.id) ?? 0,
    dossierVersion: versions.get(topic.id) ?? null,
  }));
}

/**
 * One topic's dossier by topic id or name (C15), for the CLI and MCP: the stored dossier and which sentences have
 * lost every source (`liveOnly` leaves them out, as recall does). With `team`, from the team index: the topic and
 * its versions as pushed, the sources' liveness as the team index holds them; struck sentences left out again here.
 */
export async function readTopicDossier(
  home: string,
  topicName: string,
  database: IndexDatabase | null,
  liveOnly = false,
  team: TeamMemory | null = null,
): Promise<TopicDossier> {
  const record = team ? await team.topics() : (await topicStore(home).read()).record;
  const topic = findTopic(record, topicName);
  if (!topic) throw new WeftError('topic-unknown', `no topic "${topicName}" (weft topics lists them)`, 404);
  const putAsides = readPutAsides(home);
  if (team) {
    const versions = await team.dossierVersions(topic.id);
    return dossierView(topic, versions, putAsides, liveOnly, (keys) => team.liveTurnKeys(keys));
  }
  // A read never creates the store: no file means no dossier yet.
  if (!existsSync(dossierDatabasePath(home))) return { topic, dossier: null, retired: [], validity: {} };
  const store = openDossierStore(home);
  try {
    const canvases = new CanvasStore({ directory: canvasesDirectory(home) });
    return await dossierView(topic, store.versions(topic.id), putAsides, liveOnly, (keys) =>
      liveTurnKeys(keys, { database, canvases, putAsides }),
    );
  } finally {
    store.close();
  }
}

/** The one view both sources give: the newest version less struck sentences, retired ones, and validity. */
async function dossierView(
  topic: Topic,
  versions: Dossier[],
  putAsides: PutAsides,
  liveOnly: boolean,
  live: (keys: string[]) => Promise<Set<string>>,
): Promise<TopicDossier> {
  const stored = versions.at(-1);
  if (!stored) return { topic, dossier: null, retired: [], validity: {} };
  // A struck sentence leaves every read of the dossier (issue 29.2), not only recall.
  const isStruck = (text: string) => isPutAside(putAsides, 'dossier-sentence', text);
  const dossier = withoutStruck(stored, isStruck);
  const keys = [...new Set(dossierSentences(dossier).flatMap((sentence) => sentence.citations))];
  const liveKeys = await live(keys);
  const isLive = (key: string) => liveKeys.has(key);
  const shown = new Set(dossierSentences(dossier).map((sentence) => sentence.id));
  return {
    topic,
    dossier: liveOnly ? liveSentences(dossier, isLive) : dossier,
    retired: retiredSentences(dossier, isLive),
    // Only the sentences shown: a struck one leaves the validity too (the team index never holds it).
    validity: Object.fromEntries(
      [...sentenceValidity(versions, stored.version, isStruck)].filter(([id]) => shown.has(id)),
    ),
  };
}
