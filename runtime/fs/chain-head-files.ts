import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CHAIN_HEAD_FORMAT,
  CHAIN_HEAD_VERSION,
  ChainHeadSchema,
  type ChainHead,
  WeftError,
} from '../../protocol/index.ts';
import type { EventRecord } from '../../protocol/index.ts';
import { writeFileAtomic, type AtomicFileSystem } from './atomic-write.ts';

/** The head of `events`; or, given `recorded` (a line of the anchors journal), the head that line records. */
export function chainHeadOf(
  canvasId: string,
  events: readonly EventRecord[],
  firstBadEvent: number | null,
  recorded?: { eventCount: number; lastEventHash: string },
): ChainHead {
  return {
    format: CHAIN_HEAD_FORMAT,
    version: CHAIN_HEAD_VERSION,
    canvasId,
    eventCount: recorded ? recorded.eventCount : events.length,
    lastEventHash: recorded ? recorded.lastEventHash : (events.at(-1)?.hash ?? ''),
    firstBadEvent,
  };
}

/** `<dir>/<id>.head.json`: the chain head of each canvas record, written atomically after the record. */
export class ChainHeadFiles {
  constructor(
    private readonly directory: string,
    private readonly fileSystem?: AtomicFileSystem,
  ) {}

  private pathOf(id: string): string {
    return join(this.directory, `${id}.head.json`);
  }

  /** Null when none is kept (a record written by an older Weft gets one at its next write). */
  async read(id: string): Promise<ChainHead | null> {
    let text: string;
    try {
      text = await readFile(this.pathOf(id), 'utf8');
    } catch {
      return null;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    const parsed = ChainHeadSchema.safeParse(json);
    if (!parsed.success || parsed.data.canvasId !== id) {
      throw new WeftError(
        'event-log-damaged',
        `The chain head kept for canvas "${id}" is unreadable; it was left as it is.`,
        409,
      );
    }
    return parsed.data;
  }

  write(head: ChainHead): Promise<void> {
    return writeFileAtomic(this.pathOf(head.canvasId), JSON.stringify(head), {
      mode: 0o600,
      fileSystem: this.fileSystem,
    });
  }

  async remove(id: string): Promise<void> {
    await unlink(this.pathOf(id)).catch(() => undefined);
  }
}
