import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EventRecordSchema, TopicRecordSchema, type EventRecord, type TopicRecord } from '../../protocol/index.ts';
import { appendEvent, type EventDraft, type HashPort } from '../../src/core/index.ts';
import { emptyTopicRecord } from '../../src/core/topics/index.ts';
import { canvasRevision, ensurePrivateDirectory, KeyedQueue, WeftError, writeFileAtomic } from '../fs/index.ts';

const JournalSchema = z.object({ format: z.literal('weft.topics-journal'), events: z.array(EventRecordSchema) });

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
}

/**
 * The topic table (C15) in `topics.json` (0600, replaced atomically) with its own hash-chained event log in
 * `topics-journal.json`. Writes are queued; a write naming a stale revision is refused (409, nothing written).
 */
export class TopicStore {
  private readonly queue = new KeyedQueue();

  constructor(private readonly options: TopicStoreOptions) {}

  async read(): Promise<StoredTopics> {
    const [recordText, journalText] = await Promise.all([
      this.readText('topics.json'),
      this.readText('topics-journal.json'),
    ]);
    const record = recordText === null ? emptyTopicRecord() : parse(TopicRecordSchema, recordText, 'topics.json');
    const events = journalText === null ? [] : parse(JournalSchema, journalText, 'topics-journal.json').events;
    return { record, revision: canvasRevision(recordText ?? JSON.stringify(record)), events };
  }

  /** `baseRevision` null: whatever is current (the labelling job); a string must be the current revision. */
  async update<T>(
    baseRevision: string | null,
    change: (current: StoredTopics) => { record: TopicRecord; events: readonly EventDraft[]; result: T },
  ): Promise<{ stored: StoredTopics; result: T }> {
    return this.queue.run('topics', async () => {
      const current = await this.read();
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
      ensurePrivateDirectory(this.options.directory);
      const text = JSON.stringify(record);
      await writeFileAtomic(join(this.options.directory, 'topics.json'), text, { mode: 0o600 });
      if (drafts.length > 0)
        await writeFileAtomic(
          join(this.options.directory, 'topics-journal.json'),
          JSON.stringify({ format: 'weft.topics-journal', events }),
          { mode: 0o600 },
        );
      return { stored: { record, revision: canvasRevision(text), events }, result };
    });
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

function parse<T>(schema: z.ZodType<T>, text: string, name: string): T {
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    throw new WeftError('topics-unreadable', `memory/${name} is damaged; it was left as it is.`, 500);
  }
}
