import type { FindHit, FindOptions } from './find-query.ts';
import type { IndexStatus } from './index-status.ts';
import type { PostgresIndex } from './postgres-index.ts';
import type { WhyIndex } from './why-index.ts';
import type { WhyOptions, WhyResult } from './why-query.ts';
import { resolveWhyTargets, type WhyTargetOptions } from './why-target.ts';

/**
 * The read paths `weft why | find | status` answer through, one interface over both engines: the embedded SQLite
 * index (the default) and a team's PostgreSQL index. Either way the turns left out (put aside, issue 29.2) are
 * those this machine's tombstones and canvas records name, and the answers are the same JSON.
 */
export interface IndexReader {
  readonly engine: 'sqlite' | 'postgres';
  why(input: string, options: WhyTargetOptions & WhyOptions): Promise<WhyResult>;
  hasHistory(input: string, options: WhyTargetOptions): Promise<boolean>;
  find(phrase: string, options?: FindOptions): Promise<FindHit[]>;
  status(options?: { perFile?: boolean }): Promise<IndexStatus>;
}

export function sqliteReader(index: WhyIndex): IndexReader {
  return {
    engine: 'sqlite',
    why: async (input, options) => index.why(input, options),
    hasHistory: async (input, options) => index.hasHistory(input, options),
    find: async (phrase, options) => index.find(phrase, options),
    status: async (options) => index.status(options),
  };
}

/** Answers from `team`; `local` gives what this machine decides (put-aside turns, roots, archive). */
export function postgresReader(local: WhyIndex, team: PostgresIndex): IndexReader {
  return {
    engine: 'postgres',
    why: (input, options) =>
      team.why(resolveWhyTargets(input, options), { ...options, putAside: local.turnLookup().putAside }),
    hasHistory: (input, options) => team.hasHistory(resolveWhyTargets(input, options)),
    find: async (phrase, options = {}) => {
      // As `WhyIndex.find`: put-aside hits are left out, and more rows read until `limit` others are found.
      const { putAside } = local.turnLookup();
      const limit = options.limit ?? 20;
      for (let read = limit; ; read *= 2) {
        const hits = await team.findPhrase(phrase, { ...options, limit: read });
        const kept = hits.filter((hit) => !putAside(hit.turnKey));
        if (kept.length >= limit || hits.length < read) return kept.slice(0, limit);
      }
    },
    status: (options = {}) => team.status(local.statusContext(options)),
  };
}
