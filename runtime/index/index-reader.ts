import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Dossier, TopicRecord } from '../../protocol/index.ts';
import { canvasesDirectory, readPutAsides } from '../fs/index.ts';
import type { FindHit, FindOptions } from './find-query.ts';
import type { IndexStatus } from './index-status.ts';
import type { PostgresIndex } from './postgres-index.ts';
import type { SessionTurnRow, TeamRecalledTurn } from './postgres-memory.ts';
import { checkRecalled, recallLookupRequest } from './recall-checked.ts';
import type { RecalledTurn, RecallRequest } from './recall-query.ts';
import { canvasKeyParts } from './turn-key-sources.ts';
import type { WhyIndex } from './why-index.ts';
import type { WhyOptions, WhyResult } from './why-query.ts';
import { resolveWhyTargets, type WhyTargetOptions } from './why-target.ts';

/**
 * The read paths `weft why | find | recall | status` answer through, one interface over both engines: the embedded
 * SQLite index (the default) and a team's PostgreSQL index. Either way the turns left out (put aside, issue 29.2)
 * are those this person's tombstones and canvas records name, and the answers are the same JSON.
 */
export interface IndexReader {
  readonly engine: 'sqlite' | 'postgres';
  why(input: string, options: WhyTargetOptions & WhyOptions): Promise<WhyResult>;
  hasHistory(input: string, options: WhyTargetOptions): Promise<boolean>;
  find(phrase: string, options?: FindOptions): Promise<FindHit[]>;
  recall(request: RecallRequest): Promise<RecalledTurn | TeamRecalledTurn>;
  status(options?: { perFile?: boolean }): Promise<IndexStatus>;
  /** Topics and dossiers from the team index (`weft topics | dossier`, MCP); null: this machine's memory answers. */
  readonly teamMemory: TeamMemory | null;
}

/** The topics and dossiers every machine pushed, as this person may read them. */
export interface TeamMemory {
  topics(): Promise<TopicRecord>;
  dossierTopics(): Promise<{ topicId: string; version: number }[]>;
  dossierVersions(topicId: string): Promise<Dossier[]>;
  /** Which cited turn keys still name a live turn (`liveTurnKeys` on the team index). */
  liveTurnKeys(turnKeys: readonly string[]): Promise<Set<string>>;
  /** The labelled session turns as `weft topics labels` shows them (any machine's, as this person may read). */
  sessionTurns(turnKeys: string[]): Promise<Map<string, SessionTurnRow>>;
}

export function sqliteReader(index: WhyIndex): IndexReader {
  return {
    engine: 'sqlite',
    why: async (input, options) => index.why(input, options),
    hasHistory: async (input, options) => index.hasHistory(input, options),
    find: async (phrase, options) => index.find(phrase, options),
    recall: async (request) => index.recall(request),
    status: async (options) => index.status(options),
    teamMemory: null,
  };
}

/**
 * Answers from `team`; `local` gives what this machine decides (roots, archive, canvas records, tombstones). A
 * turn is left out when this machine's lookup puts it aside by key, and also when the team row's own words are
 * put aside (a put-aside is by content: the same words pushed from another machine stay out too).
 */
export function postgresReader(local: WhyIndex, team: PostgresIndex): IndexReader {
  const memory = team.memory();
  const putAsideOf = async (turnKeys: string[]) => {
    const { putAside } = local.turnLookup();
    const byText = await memory.putAsideKeys(turnKeys, readPutAsides(local.weftHome));
    return (key: string) => byText.has(key) || putAside(key);
  };
  return {
    engine: 'postgres',
    why: (input, options) => team.why(resolveWhyTargets(input, options), { ...options, putAsideOf }),
    hasHistory: (input, options) => team.hasHistory(resolveWhyTargets(input, options)),
    find: async (phrase, options = {}) => {
      // As `WhyIndex.find`: put-aside hits are left out, and more rows read until `limit` others are found.
      const limit = options.limit ?? 20;
      for (let read = limit; ; read *= 2) {
        const hits = await team.findPhrase(phrase, { ...options, limit: read });
        const putAside = await putAsideOf(hits.map((hit) => hit.turnKey));
        const kept = hits.filter((hit) => !putAside(hit.turnKey));
        if (kept.length >= limit || hits.length < read) return kept.slice(0, limit);
      }
    },
    recall: async (request) => {
      const { request: read, cited } = recallLookupRequest(request);
      const turn = await memory.recall(read);
      const lookup = local.turnLookup();
      const putAside = await putAsideOf([turn.turnKey]);
      const canvases = canvasesDirectory(local.weftHome);
      return checkRecalled(
        turn,
        cited,
        {
          putAside: (key) => putAside(turn.turnKey) || lookup.putAside(key),
          // Whether a canvas node is live is read from its record on this machine; a canvas only another machine
          // holds is as its last push left it (archived nodes are never indexed, so never pushed). A session turn
          // the team index holds is there, whatever this machine's index holds.
          gone: (key) => {
            const parts = canvasKeyParts(key);
            return parts !== null && existsSync(join(canvases, `${parts.canvasId}.weft.json`)) && lookup.gone(key);
          },
        },
        canvases,
      );
    },
    status: (options = {}) => team.status(local.statusContext(options)),
    teamMemory: {
      topics: () => memory.topics(),
      dossierTopics: () => memory.dossierTopics(),
      dossierVersions: (topicId) => memory.dossierVersions(topicId),
      sessionTurns: (turnKeys) => memory.sessionTurns(turnKeys),
      liveTurnKeys: async (turnKeys) => {
        // A cited canvas version is decided by its record here when this machine has it (as `liveTurnKeys` does),
        // else by its node's row; a session turn by the team's row, less what is put aside.
        const rowKey = (key: string) => (canvasKeyParts(key) ? key.replace(/@[^@#]+$/, '') : key);
        const held = await memory.heldTurnKeys(turnKeys);
        const putAside = await putAsideOf(turnKeys.map(rowKey));
        const lookup = local.turnLookup();
        const canvases = canvasesDirectory(local.weftHome);
        return new Set(
          turnKeys.filter((key) => {
            const parts = canvasKeyParts(key);
            if (parts && existsSync(join(canvases, `${parts.canvasId}.weft.json`))) return !lookup.gone(key);
            return held.has(key) && !putAside(rowKey(key)) && !lookup.putAside(key);
          }),
        );
      },
    },
  };
}
