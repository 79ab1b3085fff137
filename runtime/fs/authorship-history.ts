import { createHash } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CanvasNode } from '../../protocol/index.ts';
import { othersText } from '../../src/core/index.ts';

/** One line: a question or note a model or Weft wrote, under its id, that a save removed or rewrote (or a delete). */
interface RetiredLine {
  canvasId: string;
  nodeId: string;
  /** SHA-256 of its text: the history never holds the words themselves. */
  textHash: string;
}

const FILE = 'authorship.jsonl';

const textHash = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * `<canvases>/authorship.jsonl` (issue 27.3): the server's memory of words a model or Weft wrote under a node id
 * that are gone from its record — removed or rewritten by a save, or deleted with its canvas. A save cannot otherwise tell a node
 * re-added under that id (in a later save, or in a record re-created after a delete) from a new one, so without it
 * a delete and a re-add would hand the person those words. Append-only, one append at a time; a torn last line
 * (a crash mid-append) is skipped when read, so at worst one retirement is lost, never a line misread.
 */
export class AuthorshipHistory {
  private loaded: Promise<Map<string, Set<string>>> | null = null;
  /** Whether the file ends in a torn line, which the next append must not run on into. */
  private torn = false;
  private appending: Promise<unknown> = Promise.resolve();

  constructor(private readonly directory: string) {}

  private get path(): string {
    return join(this.directory, FILE);
  }

  private load() {
    return (this.loaded ??= this.read());
  }

  private async read(): Promise<Map<string, Set<string>>> {
    const retired = new Map<string, Set<string>>();
    let text = '';
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      // No history yet: nothing a model or Weft wrote was removed.
    }
    this.torn = text.length > 0 && !text.endsWith('\n');
    for (const line of text.split('\n')) {
      try {
        const { canvasId, nodeId, textHash: hash } = JSON.parse(line) as RetiredLine;
        if (typeof hash === 'string') add(retired, canvasId, nodeId, hash);
      } catch {
        // A torn or foreign line records nothing.
      }
    }
    return retired;
  }

  /** Whether a model or Weft wrote `text` under `nodeId` on `canvasId` before it was removed. */
  async wroteBefore(canvasId: string): Promise<(nodeId: string, text: string) => boolean> {
    const retired = await this.load();
    return (nodeId, text) => retired.get(key(canvasId, nodeId))?.has(textHash(text)) ?? false;
  }

  /** Whether a model or Weft wrote `text` under any id of `canvasId` that a save since removed or rewrote. */
  async wroteOnCanvas(canvasId: string): Promise<(text: string) => boolean> {
    const retired = await this.load();
    return (text) => retired.get(key(canvasId, ANY_NODE))?.has(textHash(text)) ?? false;
  }

  /**
   * Retires what a save takes away from a model's or Weft's words: the nodes of `before` that `after` lacks, holds
   * as another kind, or holds with other words (an edit: the old words stay theirs under this id).
   */
  retireRemoved(canvasId: string, before: readonly CanvasNode[], after: readonly CanvasNode[]): Promise<void> {
    const next = new Map(after.map((node) => [node.id, node]));
    return this.retire(
      canvasId,
      before.filter((node) => {
        const now = next.get(node.id);
        return !now || now.kind !== node.kind || wordsOf(now) !== wordsOf(node);
      }),
    );
  }

  /** Records the questions and notes a model or Weft wrote among `removed` (a person's own are not kept). */
  retire(canvasId: string, removed: Iterable<CanvasNode>): Promise<void> {
    const lines: RetiredLine[] = [];
    for (const node of removed) {
      const text = othersText(node);
      if (text !== null) lines.push({ canvasId, nodeId: node.id, textHash: textHash(text) });
    }
    if (lines.length === 0) return Promise.resolve();
    const run = this.appending.then(async () => {
      const retired = await this.load();
      const body = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
      await appendFile(this.path, (this.torn ? '\n' : '') + body, { mode: 0o600 });
      this.torn = false;
      for (const line of lines) add(retired, line.canvasId, line.nodeId, line.textHash);
    });
    this.appending = run.catch(() => undefined);
    return run;
  }
}

const key = (canvasId: string, nodeId: string) => `${canvasId}\n${nodeId}`;
/** The bucket of every id of a canvas (node ids are never empty). */
const ANY_NODE = '';

/** A question's or note's words, whoever wrote them. */
function wordsOf(node: CanvasNode): string | null {
  return node.kind === 'question' ? node.question : node.kind === 'note' ? node.text : null;
}

function add(retired: Map<string, Set<string>>, canvasId: string, nodeId: string, hash: string): void {
  for (const id of [key(canvasId, nodeId), key(canvasId, ANY_NODE)]) {
    const hashes = retired.get(id) ?? new Set<string>();
    hashes.add(hash);
    retired.set(id, hashes);
  }
}
