import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  EventRecordSchema,
  TopicRecordSchema,
  type EventRecord,
  type TopicRecord,
  WeftError,
} from '../../protocol/index.ts';
import { appendEvent, type EventDraft, type HashPort } from '../../src/core/index.ts';
import { emptyTopicRecord } from '../../src/core/topics/index.ts';
import { canvasRevision, chainHeadOf, writeFileAtomicSync } from '../fs/index.ts';
import { withTopicsLock } from './topics-lock.ts';

const JournalSchema = z.object({ format: z.literal('weft.topics-journal'), events: z.array(EventRecordSchema) });

/** `topics-journal.head.json`: the topics journal's chain head, so events removed from its end are detected. */
export const TOPICS_JOURNAL_HEAD_ID = 'topics-journal';

export interface StoredTopics {
  record: TopicRecord;
  /** SHA-256 of the stored record's bytes: the ETag a person's edit names in If-Match. */
  revision: string;
  events: EventRecord[];
}

export interface TopicStoreOptions {
  /** `$WEFT_HOME/memory`: topics live beside the profile. */
  directory: string;
  now: () => number;
  newId: () => string;
  hash?: HashPort;
  /** How long a write waits for another process's (default `TOPICS_BUSY_MS`), then `topics-busy`. */
  busyMs?: number;
}

/**
 * The topic table (C15) in `topics.json` (0600, replaced atomically) with its own hash-chained event log in
 * `topics-journal.json`. Every write reads, checks and replaces both files under one lock shared by every process
 * (`withTopicsLock`), so a CLI edit during the server's labelling run loses neither side; a write naming a stale
 * revision is refused (409, nothing written).
 */
export class TopicStore {
  constructor(private readonly options: TopicStoreOptions) {}

  async read(): Promise<StoredTopics> {
    const [recordText, journalText] = await Promise.all([
      this.readText('topics.json'),
      this.readText('topics-journal.json'),
    ]);
    return stored(recordText, journalText);
  }

  /** `baseRevision` null: whatever is current (the labelling job); a string must be the current revision. */
  async update<T>(
    baseRevision: string | null,
    change: (current: StoredTopics) => { record: TopicRecord; events: readonly EventDraft[]; result: T },
  ): Promise<{ stored: StoredTopics; result: T }> {
    return withTopicsLock(this.options.directory, () => this.write(baseRevision, change), this.options.busyMs);
  }

  /** The read-check-write, synchronous so it completes while the lock is held. */
  private write<T>(
    baseRevision: string | null,
    change: (current: StoredTopics) => { record: TopicRecord; events: readonly EventDraft[]; result: T },
  ): { stored: StoredTopics; result: T } {
    const current = stored(this.readTextSync('topics.json'), this.readTextSync('topics-journal.json'));
    if (baseRevision !== null && baseRevision !== current.revision)
      throw new WeftError('revision-conflict', 'The topics changed since this copy was read; read them again.', 409);
    const { record, events: drafts, result } = change(current);
    TopicRecordSchema.parse(record);
    let events = current.events;
    for (const draft of drafts)
      events = [
        ...events,
        appendEvent(events, draft, { now: this.options.now(), newId: this.options.newId, hash: this.options.hash }),
      ];
    const text = JSON.stringify(record);
    writeFileAtomicSync(join(this.options.directory, 'topics.json'), text);
    if (drafts.length > 0)
      writeFileAtomicSync(
        join(this.options.directory, 'topics-journal.json'),
        JSON.stringify({ format: 'weft.topics-journal', events }),
      );
    // The chain head after the log, still under the lock, so heads are written in the order of their logs.
    if (drafts.length > 0)
      writeFileAtomicSync(
        join(this.options.directory, `${TOPICS_JOURNAL_HEAD_ID}.head.json`),
        JSON.stringify(chainHeadOf(TOPICS_JOURNAL_HEAD_ID, events, null)),
      );
    return { stored: { record, revision: canvasRevision(text), events }, result };
  }

  private readTextSync(name: string): string | null {
    try {
      return readFileSync(join(this.options.directory, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  private async readText(name: string): Promise<string | null> {
    try {
      return await readFile(join(this.options.directory, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}

function stored(recordText: string | null, journalText: string | null): StoredTopics {
  const record = recordText === null ? emptyTopicRecord() : parse(TopicRecordSchema, recordText, 'topics.json');
  const events = journalText === null ? [] : parse(JournalSchema, journalText, 'topics-journal.json').events;
  return { record, revision: canvasRevision(recordText ?? JSON.stringify(record)), events };
}

function parse<T>(schema: z.ZodType<T>, text: string, name: string): T {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    throw new WeftError('topics-unreadable', `memory/${name} is damaged; it was left as it is.`, 500);
  }
}
