import { readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CHAIN_HEAD_FORMAT,
  CHAIN_HEAD_VERSION,
  ChainHeadSchema,
  type ChainHead,
  WeftError,
} from '../../protocol/index.ts';
import type { CanvasDocument, ChainVerdict, EventRecord } from '../../protocol/index.ts';
import { chainVerdict } from '../../src/core/index.ts';
import { nodeHashPort } from '../hash/index.ts';
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

/** A log against a chain head; the break an imported log came with is reported as it is, unless damaged after it. */
export function verdictAgainst(events: CanvasDocument['events'], head: ChainHead | null): ChainVerdict {
  const verdict = chainVerdict(
    events,
    head ? { length: head.eventCount, headHash: head.lastEventHash } : null,
    nodeHashPort,
  );
  if (head && verdict.status === 'bad-event' && verdict.index === head.firstBadEvent) {
    if (events.length < head.eventCount)
      return { status: 'missing-at-end', eventCount: events.length, missing: head.eventCount - events.length };
    const last = head.eventCount - 1;
    if (last >= 0 && events[last]!.hash !== head.lastEventHash)
      return { status: 'bad-event', eventCount: events.length, index: last, eventId: events[last]!.id };
  }
  return verdict;
}
