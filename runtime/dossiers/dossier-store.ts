import { randomUUID } from 'node:crypto';
import type {
  Dossier,
  DossierMode,
  DossierVersionSummary,
  DroppedSentence,
  EventRecord,
  PendingFact,
} from '../../protocol/index.ts';
import { DossierSchema, EventRecordSchema, WeftError } from '../../protocol/index.ts';
import { appendEvent, type EventDraft, type HashPort } from '../../src/core/index.ts';
import {
  dossierSentences,
  factsConsumed,
  liveSentences,
  retiredSentences,
  type IsLive,
} from '../../src/core/dossiers/index.ts';
import { dossierDatabasePath, openDossierDatabase, type DossierDatabase } from './dossier-database.ts';
import { SentenceProposals } from './sentence-proposals.ts';

export interface DossierStoreOptions {
  now?: () => number;
  newId?: () => string;
  hash?: HashPort;
}

export interface StoredVersion {
  dossier: Dossier;
  summary: DossierVersionSummary;
  dropped: DroppedSentence[];
}

export interface DossierWrite {
  topicId: string;
  mode: DossierMode;
  modelId: string | null;
  /** The version the run started from; a write finding a newer one is refused (`dossier-changed`). */
  baseVersion: number;
  dossier: Dossier;
  dropped: DroppedSentence[];
  turnsRead: readonly string[];
  factsRead: readonly string[];
}

interface FactRow {
  id: string;
  topic_id: string | null;
  text: string;
  turn_key: string | null;
  filed_at: number;
}

const factOf = (row: FactRow): PendingFact => ({
  id: row.id,
  topicId: row.topic_id,
  text: row.text,
  turnKey: row.turn_key,
  filedAt: row.filed_at,
});

/**
 * Dossiers (C15) in SQLite: every version kept (history), the turns each topic has read, project facts waiting per
 * topic or in the general inbox, and a hash-chained event log. Every write is one IMMEDIATE transaction — SQLite's
 * write lock, shared by every process on this home; a writer that cannot get it within `DOSSIER_BUSY_MS` is
 * refused (`dossier-busy`), it never goes ahead unlocked. Events carry ids and counts, never text.
 */
export class DossierStore {
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(
    private readonly database: DossierDatabase,
    private readonly options: DossierStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
  }

  /** The topic's current dossier, or null before its first build. */
  read(topicId: string): Dossier | null {
    return this.version(topicId, null)?.dossier ?? null;
  }

  /** One stored version (null: the newest). */
  version(topicId: string, version: number | null): StoredVersion | null {
    const row = this.database
      .prepare(
        version === null
          ? 'SELECT * FROM dossier_versions WHERE topic_id = ? ORDER BY version DESC LIMIT 1'
          : 'SELECT * FROM dossier_versions WHERE topic_id = ? AND version = ?',
      )
      .get(...(version === null ? [topicId] : [topicId, version])) as VersionRow | undefined;
    return row ? storedVersion(row) : null;
  }

  /** Every version of the topic's dossier, newest first. */
  history(topicId: string): DossierVersionSummary[] {
    const rows = this.database
      .prepare('SELECT * FROM dossier_versions WHERE topic_id = ? ORDER BY version DESC')
      .all(topicId) as VersionRow[];
    return rows.map((row) => storedVersion(row).summary);
  }

  /** Every stored version of the topic's dossier, oldest first: what a sentence's validity is read from (#29.4). */
  versions(topicId: string): Dossier[] {
    const rows = this.database
      .prepare('SELECT * FROM dossier_versions WHERE topic_id = ? ORDER BY version')
      .all(topicId) as VersionRow[];
    return rows.map((row) => storedVersion(row).dossier);
  }

  /** The topics that have a dossier, with their newest version. */
  topics(): { topicId: string; version: number }[] {
    return this.database
      .prepare('SELECT topic_id AS topicId, MAX(version) AS version FROM dossier_versions GROUP BY topic_id')
      .all() as { topicId: string; version: number }[];
  }

  /** The dossier sentences waiting for review (issue 29.1), on this store's connection and lock. */
  sentenceProposals(): SentenceProposals {
    return new SentenceProposals(this.database, this, this.options);
  }

  liveSentences(dossier: Dossier, isLive: IsLive): Dossier {
    return liveSentences(dossier, isLive);
  }

  retiredSentences(dossier: Dossier, isLive: IsLive): string[] {
    return retiredSentences(dossier, isLive);
  }

  readKeys(topicId: string): Set<string> {
    const rows = this.database.prepare('SELECT turn_key AS key FROM read_turns WHERE topic_id = ?').all(topicId) as {
      key: string;
    }[];
    return new Set(rows.map((row) => row.key));
  }

  /**
   * #29: the turn keys of the facts this topic's dossier consumed. The memory judge extracted those facts (inferred),
   * and the run showed each under its turn's key, so a sentence citing one of these keys may rest on the extraction.
   */
  consumedFactKeys(topicId: string): Set<string> {
    const rows = this.database
      .prepare(
        "SELECT DISTINCT turn_key AS key FROM facts WHERE state = 'consumed' AND topic_id = ? AND turn_key IS NOT NULL",
      )
      .all(topicId) as { key: string }[];
    return new Set(rows.map((row) => row.key));
  }

  /** Facts waiting for the topic's dossier; `null`: the general inbox. Oldest first. */
  pending(topicId: string | null): PendingFact[] {
    const rows = this.database
      .prepare(
        topicId === null
          ? "SELECT * FROM facts WHERE state = 'pending' AND topic_id IS NULL ORDER BY seq"
          : "SELECT * FROM facts WHERE state = 'pending' AND topic_id = ? ORDER BY seq",
      )
      .all(...(topicId === null ? [] : [topicId])) as FactRow[];
    return rows.map(factOf);
  }

  pendingCounts(): Map<string, number> {
    const rows = this.database
      .prepare(
        "SELECT topic_id AS topicId, COUNT(*) AS count FROM facts WHERE state = 'pending' AND topic_id IS NOT NULL GROUP BY topic_id",
      )
      .all() as { topicId: string; count: number }[];
    return new Map(rows.map((row) => [row.topicId, row.count]));
  }

  events(): EventRecord[] {
    const rows = this.database.prepare('SELECT record FROM events ORDER BY seq').all() as { record: string }[];
    return rows.map((row) => EventRecordSchema.parse(JSON.parse(row.record)));
  }

  /**
   * Files one project fact to each topic that claims its turn, or to the general inbox when none does. One fact
   * row per topic, one `dossier-fact-filed` event each.
   */
  fileFact(fact: { text: string; turnKey: string | null; topicIds: readonly string[] }): PendingFact[] {
    return this.write(() => {
      const targets: (string | null)[] = fact.topicIds.length > 0 ? [...new Set(fact.topicIds)] : [null];
      const filed: PendingFact[] = [];
      for (const topicId of targets) {
        const row: PendingFact = {
          id: this.newId(),
          topicId,
          text: fact.text,
          turnKey: fact.turnKey,
          filedAt: this.now(),
        };
        this.database
          .prepare("INSERT INTO facts(id, topic_id, text, turn_key, filed_at, state) VALUES (?, ?, ?, ?, ?, 'pending')")
          .run(row.id, row.topicId, row.text, row.turnKey, row.filedAt);
        this.event({ op: 'dossier-fact-filed', objectId: row.id, meta: { topicId, inbox: topicId === null } });
        filed.push(row);
      }
      return filed;
    });
  }

  /**
   * A topic was merged (`to` the kept topic) or deleted (`to` null: the general inbox): its pending facts follow,
   * so none is left on a topic that no longer exists. One `dossier-facts-moved` event when any moved.
   */
  moveFacts(from: string, to: string | null): number {
    return this.write(() => {
      const moved = this.database
        .prepare("UPDATE facts SET topic_id = ? WHERE topic_id = ? AND state = 'pending'")
        .run(to, from).changes;
      if (moved > 0) this.event({ op: 'dossier-facts-moved', objectId: from, meta: { to, count: moved } });
      return moved;
    });
  }

  /** The person files an inbox fact to a topic. */
  fileInboxFact(factId: string, topicId: string): PendingFact {
    return this.write(() => {
      const row = this.inboxRow(factId);
      this.database.prepare('UPDATE facts SET topic_id = ? WHERE id = ?').run(topicId, factId);
      this.event({ op: 'dossier-inbox-filed', objectId: factId, meta: { topicId } });
      return { ...factOf(row), topicId };
    });
  }

  /** The person discards an inbox fact: kept as discarded, never read by a dossier. */
  discardInboxFact(factId: string): void {
    this.write(() => {
      this.inboxRow(factId);
      this.database.prepare("UPDATE facts SET state = 'discarded' WHERE id = ?").run(factId);
      this.event({ op: 'dossier-inbox-discarded', objectId: factId, meta: {} });
    });
  }

  /**
   * Writes a new version under the lock: the previous stays as history; the turns read are marked read (a rebuild
   * forgets the earlier marks first); only the facts the run read and that are still pending are consumed — one
   * filed meanwhile waits for the next run.
   */
  writeVersion(write: DossierWrite): { version: StoredVersion; consumed: string[] } {
    DossierSchema.parse(write.dossier);
    return this.write(() => {
      const latest = this.version(write.topicId, null)?.dossier.version ?? 0;
      if (latest !== write.baseVersion)
        throw new WeftError('dossier-changed', 'The dossier was written by another run meanwhile; plan again.', 409);
      if (write.dossier.version !== latest + 1 || write.dossier.topicId !== write.topicId)
        throw new WeftError('dossier-invalid', 'A dossier version follows the newest one of its own topic.', 400);
      const { consumed } = factsConsumed(write.factsRead, this.pending(write.topicId));
      const version = write.dossier.version;
      this.database
        .prepare(
          'INSERT INTO dossier_versions(topic_id, version, written_at, mode, model_id, body, dropped, turns_read, facts_read) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          write.topicId,
          version,
          write.dossier.writtenAt,
          write.mode,
          write.modelId,
          JSON.stringify(write.dossier),
          JSON.stringify(write.dropped),
          write.turnsRead.length,
          consumed.length,
        );
      if (write.mode === 'rebuild')
        this.database.prepare('DELETE FROM read_turns WHERE topic_id = ?').run(write.topicId);
      const mark = this.database.prepare(
        'INSERT OR REPLACE INTO read_turns(topic_id, turn_key, version) VALUES (?, ?, ?)',
      );
      for (const key of write.turnsRead) mark.run(write.topicId, key, version);
      const consume = this.database.prepare(
        "UPDATE facts SET state = 'consumed', consumed_by = ? WHERE id = ? AND state = 'pending'",
      );
      for (const id of consumed) consume.run(version, id);
      this.event({
        op: 'dossier-written',
        objectId: write.topicId,
        meta: {
          version,
          mode: write.mode,
          model: write.modelId,
          sentences: dossierSentences(write.dossier).length,
          dropped: write.dropped.length,
          turnsRead: write.turnsRead.length,
          factsConsumed: consumed.length,
        },
      });
      return { version: this.version(write.topicId, version)!, consumed };
    });
  }

  close(): void {
    this.database.close();
  }

  private inboxRow(factId: string): FactRow {
    const row = this.database
      .prepare("SELECT * FROM facts WHERE id = ? AND state = 'pending' AND topic_id IS NULL")
      .get(factId) as FactRow | undefined;
    if (!row) throw new WeftError('inbox-fact-unknown', 'There is no such fact waiting in the general inbox.', 404);
    return row;
  }

  /** Appends one event chained to the newest stored one; only called inside `write`. */
  private event(draft: EventDraft): void {
    const last = this.database.prepare('SELECT record FROM events ORDER BY seq DESC LIMIT 1').get() as
      { record: string } | undefined;
    const previous = last ? [EventRecordSchema.parse(JSON.parse(last.record))] : [];
    const record = appendEvent(previous, draft, { now: this.now(), newId: this.newId, hash: this.options.hash });
    this.database.prepare('INSERT INTO events(record) VALUES (?)').run(JSON.stringify(record));
  }

  /** One IMMEDIATE transaction: the write lock is taken before anything is read. */
  private write<T>(body: () => T): T {
    try {
      return this.database.transaction(body).immediate();
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_BUSY')
        throw new WeftError(
          'dossier-busy',
          'Another writer held the dossier store too long; nothing was written.',
          503,
        );
      throw error;
    }
  }
}

interface VersionRow {
  topic_id: string;
  version: number;
  written_at: number;
  mode: DossierMode;
  model_id: string | null;
  body: string;
  dropped: string;
  turns_read: number;
  facts_read: number;
}

function storedVersion(row: VersionRow): StoredVersion {
  let dossier: Dossier;
  let dropped: DroppedSentence[];
  try {
    dossier = DossierSchema.parse(JSON.parse(row.body));
    dropped = JSON.parse(row.dropped) as DroppedSentence[];
  } catch {
    throw new WeftError(
      'dossier-unreadable',
      `The dossier of topic ${row.topic_id} is damaged; it was left as it is.`,
      500,
    );
  }
  return {
    dossier,
    dropped,
    summary: {
      version: row.version,
      writtenAt: row.written_at,
      mode: row.mode,
      modelId: row.model_id,
      sentences: dossierSentences(dossier).length,
      dropped: dropped.length,
      turnsRead: row.turns_read,
      factsRead: row.facts_read,
    },
  };
}

/** The store of `$WEFT_HOME/memory/dossiers.sqlite` (created on first use). Recall (C16) reads dossiers here. */
export function openDossierStore(weftHome: string, options: DossierStoreOptions = {}): DossierStore {
  return new DossierStore(openDossierDatabase(dossierDatabasePath(weftHome)), options);
}
