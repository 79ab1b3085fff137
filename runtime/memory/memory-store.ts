import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { EventRecordSchema, MemoryActivitySchema, MemoryInboxSchema, WeftError } from '../../protocol/index.ts';
import type { MemoryActivity, MemoryInbox, MemoryProfile } from '../../protocol/index.ts';
import { appendEvent, type EventDraft, type HashPort } from '../../src/core/index.ts';
import { emptyInbox, emptyProfile, loadProfile } from '../../src/core/memory/index.ts';
import {
  canvasRevision,
  ChainHeadFiles,
  chainHeadOf,
  ensurePrivateDirectory,
  KeyedQueue,
  writeFileAtomic,
  type AtomicFileSystem,
} from '../fs/index.ts';

/** The activity list keeps the newest entries only: it is a view of recent decisions, the event log is the record. */
export const MAX_ACTIVITY = 200;

const JournalSchema = z.object({
  format: z.literal('weft.memory-journal'),
  events: z.array(EventRecordSchema),
  activity: z.array(MemoryActivitySchema),
  offCanvases: z.array(z.string()),
});
export type MemoryJournal = z.infer<typeof JournalSchema>;

function emptyJournal(): MemoryJournal {
  return { format: 'weft.memory-journal', events: [], activity: [], offCanvases: [] };
}

export interface StoredMemory {
  profile: MemoryProfile;
  /** SHA-256 of the stored profile's bytes (the ETag): any change, even outside Weft, is a new revision. */
  revision: string;
  journal: MemoryJournal;
  /** The proposals waiting for the person (issue 29.1), and the SHA-256 of `inbox.json`'s bytes. */
  inbox: MemoryInbox;
  inboxRevision: string;
}

/** What one write changes; `events` are appended (hash-chained), `activity` put first. */
export interface MemoryChange {
  profile?: MemoryProfile;
  events?: readonly EventDraft[];
  activity?: readonly MemoryActivity[];
  offCanvases?: string[];
  inbox?: MemoryInbox;
}

export interface MemoryStoreOptions {
  directory: string;
  now: () => number;
  newId: () => string;
  hash?: HashPort;
  fileSystem?: AtomicFileSystem;
}

/** `journal.head.json`: the profile journal's chain head, so events removed from its end are detected. */
export const JOURNAL_HEAD_ID = 'journal';

export function memoryDirectory(home: string): string {
  return join(home, 'memory');
}

/**
 * The profile (C14) under `$WEFT_HOME/memory/`: `profile.json` (the profile record, revisioned by the SHA-256 of
 * its bytes) and `journal.json` (memory's own hash-chained event log, the judge's activity, the canvases with the
 * [Memory] block off). Files are 0600 and replaced atomically; writes are queued, never interleaved. A write
 * names the revision it was based on, or is refused with `revision-conflict` (409) and writes nothing.
 */
export class MemoryStore {
  private readonly queue = new KeyedQueue();
  /** The last inbox read and its bytes: a long Inbox is validated once, not on every read of the same file. */
  private lastInbox: { text: string; inbox: MemoryInbox; revision: string } | null = null;

  constructor(private readonly options: MemoryStoreOptions) {}

  /** `$WEFT_HOME/memory/`, where this store's files are. */
  get directory(): string {
    return this.options.directory;
  }

  private path(name: string): string {
    return join(this.options.directory, name);
  }

  async read(): Promise<StoredMemory> {
    const [profileText, journalText, inboxText] = await Promise.all([
      this.readText('profile.json'),
      this.readText('journal.json'),
      this.readText('inbox.json'),
    ]);
    const profile = profileText === null ? emptyProfile() : parseProfile(profileText);
    const journal = journalText === null ? emptyJournal() : parseJournal(journalText);
    const { inbox, revision: inboxRevision } = this.inboxOf(inboxText);
    return { profile, revision: canvasRevision(profileText ?? JSON.stringify(profile)), journal, inbox, inboxRevision };
  }

  /** The Inbox alone (its route lists it often and large): the other files are not read. */
  async readInbox(): Promise<{ inbox: MemoryInbox; revision: string }> {
    return this.inboxOf(await this.readText('inbox.json'));
  }

  private inboxOf(text: string | null): { inbox: MemoryInbox; revision: string } {
    if (text === null) {
      const inbox = emptyInbox();
      return { inbox, revision: canvasRevision(JSON.stringify(inbox)) };
    }
    // Any change to the file, by Weft or not, is new bytes: parsed, validated and hashed again.
    if (this.lastInbox?.text !== text)
      this.lastInbox = { text, inbox: parseInbox(text), revision: canvasRevision(text) };
    return { inbox: this.lastInbox.inbox, revision: this.lastInbox.revision };
  }

  /**
   * Runs `change` on the current record and stores what it returns. `baseRevision` null means "whatever is
   * current" (the judge, which reads and writes inside the queue); a string must equal the current revision.
   */
  async update<T>(
    baseRevision: string | null,
    change: (current: StoredMemory) => { change: MemoryChange; result: T },
  ): Promise<{ stored: StoredMemory; result: T }> {
    return this.queue.run('memory', async () => {
      const current = await this.read();
      if (baseRevision !== null && baseRevision !== current.revision)
        throw new WeftError(
          'revision-conflict',
          `The memory profile changed since this copy was read (it is at revision ${current.revision.slice(0, 12)}); read it again.`,
          409,
        );
      const { change: made, result } = change(current);
      // Never store a profile this store could not read back.
      if (made.profile) {
        const checked = loadProfile(made.profile);
        if (!checked.ok)
          throw new WeftError('memory-invalid', `The profile would not be valid: ${checked.error.message}`, 400);
      }
      let events = current.journal.events;
      for (const draft of made.events ?? [])
        events = [
          ...events,
          appendEvent(events, draft, { now: this.options.now(), newId: this.options.newId, hash: this.options.hash }),
        ];
      const journal: MemoryJournal = {
        ...current.journal,
        events,
        activity: [...(made.activity ?? []), ...current.journal.activity].slice(0, MAX_ACTIVITY),
        offCanvases: made.offCanvases ?? current.journal.offCanvases,
      };
      ensurePrivateDirectory(this.options.directory);
      // The journal first: a crash between the two writes may leave an event for a profile not written, never a
      // written profile without its events.
      await writeFileAtomic(this.path('journal.json'), JSON.stringify(journal), {
        mode: 0o600,
        fileSystem: this.options.fileSystem,
      });
      // The chain head after the log it names: a crash between leaves an older head, which the log still extends.
      if (events !== current.journal.events)
        await new ChainHeadFiles(this.options.directory, this.options.fileSystem).write(
          chainHeadOf(JOURNAL_HEAD_ID, events, null),
        );
      let profileText: string | null = null;
      if (made.profile) {
        profileText = JSON.stringify(made.profile);
        await writeFileAtomic(this.path('profile.json'), profileText, {
          mode: 0o600,
          fileSystem: this.options.fileSystem,
        });
      }
      // The inbox last: a crash after an accepted line is written leaves its proposal pending (accepting it again
      // finds the line already there), never a proposal gone without its line.
      let inboxText: string | null = null;
      if (made.inbox) {
        inboxText = JSON.stringify(made.inbox);
        await writeFileAtomic(this.path('inbox.json'), inboxText, { mode: 0o600, fileSystem: this.options.fileSystem });
      }
      const profile = made.profile ?? current.profile;
      const revision = profileText === null ? current.revision : canvasRevision(profileText);
      const inbox = made.inbox ?? current.inbox;
      const inboxRevision = inboxText === null ? current.inboxRevision : canvasRevision(inboxText);
      return { stored: { profile, revision, journal, inbox, inboxRevision }, result };
    });
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async readText(name: string): Promise<string | null> {
    try {
      return await readFile(this.path(name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}

function parseProfile(text: string): MemoryProfile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WeftError('memory-unreadable', 'memory/profile.json is not JSON; it was left as it is.', 500);
  }
  const loaded = loadProfile(json);
  if (!loaded.ok)
    throw new WeftError('memory-unreadable', `memory/profile.json: ${loaded.error.message} It was left as it is.`, 500);
  return loaded.value;
}

function parseJournal(text: string): MemoryJournal {
  try {
    return JournalSchema.parse(JSON.parse(text));
  } catch {
    throw new WeftError('memory-unreadable', 'memory/journal.json is damaged; it was left as it is.', 500);
  }
}

function parseInbox(text: string): MemoryInbox {
  try {
    return MemoryInboxSchema.parse(JSON.parse(text));
  } catch {
    throw new WeftError('memory-unreadable', 'memory/inbox.json is damaged; it was left as it is.', 500);
  }
}
