import {
  type EventRecord,
  type MemoryJournalName,
  type MemoryJournalPage,
  type MemoryJournalVerify,
} from '../../protocol/index.ts';
import { chainVerdict, describeChainVerdict } from '../../src/core/index.ts';
import { journalPage, type JournalQuery } from '../../src/core/memory/index.ts';
import { ChainHeadFiles } from '../fs/index.ts';
import { nodeHashPort } from '../hash/index.ts';
import { TOPICS_JOURNAL_HEAD_ID, TopicStore } from '../topics/index.ts';
import { JOURNAL_HEAD_ID, MemoryStore, memoryDirectory } from './memory-store.ts';

const FILES: Record<MemoryJournalName, string> = { profile: 'journal.json', topics: 'topics-journal.json' };
const HEADS: Record<MemoryJournalName, string> = { profile: JOURNAL_HEAD_ID, topics: TOPICS_JOURNAL_HEAD_ID };

/**
 * Memory's two hash-chained journals read together under `$WEFT_HOME/memory/`: the profile's (every fact judged,
 * written, undone, refused, edited) and the topics' (every table edit and labelling run). Read-only: the server's
 * journal routes and `weft memory journal` page through them and verify them the way `weft verify` checks a canvas.
 */
export class MemoryJournals {
  private readonly directory: string;

  constructor(home: string) {
    this.directory = memoryDirectory(home);
  }

  async read(): Promise<Record<MemoryJournalName, EventRecord[]>> {
    const unused = () => {
      throw new Error('The journals are read here, never written.');
    };
    const options = { directory: this.directory, now: Date.now, newId: unused };
    const [memory, topics] = await Promise.all([new MemoryStore(options).read(), new TopicStore(options).read()]);
    return { profile: memory.journal.events, topics: topics.events };
  }

  async page(query: JournalQuery): Promise<MemoryJournalPage> {
    return journalPage(await this.read(), query);
  }

  /** Each chain checked against the head kept beside it: the first bad event, or how many are missing at the end. */
  async verify(): Promise<MemoryJournalVerify> {
    const journals = await this.read();
    const heads = new ChainHeadFiles(this.directory);
    const checked = await Promise.all(
      (['profile', 'topics'] as const).map(async (journal) => {
        const head = await heads.read(HEADS[journal]);
        const verdict = chainVerdict(
          journals[journal],
          head ? { length: head.eventCount, headHash: head.lastEventHash } : null,
          nodeHashPort,
        );
        return { journal, file: `memory/${FILES[journal]}`, verdict, message: describeChainVerdict(verdict) };
      }),
    );
    return { intact: checked.every((entry) => entry.verdict.status === 'intact'), journals: checked };
  }
}
