import { createHash } from 'node:crypto';
import { mkdir, open, readFile, truncate, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { QuestionAuthor } from '../../protocol/index.ts';
import { canonicalJson } from '../../src/core/index.ts';

/** What the server itself saw when it committed a model-lane request for a canvas's question node. */
export interface CommitFields {
  requestHash: string;
  /** Issue 31: the server's hash of the request's messages and tools alone; absent on lines from before it. */
  contextHash?: string;
  canvasId: string;
  nodeId: string;
  /** SHA-256 of the question text the request carried (the first text part of its final user turn). */
  questionHash: string;
  /** Who wrote that question by the stored record at commit time, or null when the record could not say. */
  questionAuthor: QuestionAuthor | null;
}

/** A committed request as the ledger holds it: its answer's hash once the server streamed it to the end. */
export interface LedgerCommit extends CommitFields {
  seq: number;
  at: number;
  answerHash: string | null;
}

type LedgerLine =
  | ({ kind: 'commit'; seq: number; at: number; prevHash: string; hash: string } & CommitFields)
  | { kind: 'answer'; seq: number; at: number; commit: number; answerHash: string; prevHash: string; hash: string };

/** A line before its hash (`Omit` per kind of line). */
type WithoutHash<Line> = Line extends unknown ? Omit<Line, 'hash'> : never;
type LineBody = WithoutHash<LedgerLine>;
type MakeLine = (seq: number, at: number, prevHash: string) => LineBody;

const FILE = 'commits.jsonl';

function lineHash(body: LineBody): string {
  return createHash('sha256').update(canonicalJson(body), 'utf8').digest('hex');
}

/**
 * `$WEFT_HOME/ledger/commits.jsonl` (issue 27.3): the server's own record of every model-lane request it committed
 * for a question node (`request-accepted` sent) and of the answer it streamed to the end, in one append-only journal
 * whose lines chain by hash, like the canvases' anchors journal. Memory takes a version as evidence only when it
 * matches a line here — nothing a client writes into a canvas record can stand in for it. Appends run one at a time;
 * a torn last line (a crash mid-append) is cut at the next append; lines from the first one that does not chain
 * are never read as recorded (the ledger then vouches for nothing newer, so memory refuses rather than trusts).
 */
export class CommitLedger {
  private loaded: Promise<{
    byRequest: Map<string, LedgerCommit[]>;
    bySeq: Map<number, LedgerCommit>;
    seq: number;
    hash: string;
    torn: number | null;
    broken: boolean;
  }> | null = null;
  private waiting: { make: MakeLine; resolve: (line: LedgerLine) => void; reject: (error: unknown) => void }[] = [];
  private writing: Promise<void> | null = null;
  /** The journal, opened for appending once (not per append); a failed write closes it, the next one reopens. */
  private file: FileHandle | null = null;
  /** After `close()` (the server stopped) nothing more is written: a late answer's line would leak a handle. */
  private closed = false;

  constructor(
    private readonly directory: string,
    private readonly now: () => number = Date.now,
  ) {}

  private get path(): string {
    return join(this.directory, FILE);
  }

  private load() {
    return (this.loaded ??= this.read());
  }

  private async read() {
    let text = '';
    try {
      text = await readFile(this.path, 'utf8');
    } catch {
      // No ledger yet: nothing was committed through it.
    }
    const end = text.lastIndexOf('\n') + 1;
    const torn = end < text.length ? Buffer.byteLength(text.slice(0, end), 'utf8') : null;
    const byRequest = new Map<string, LedgerCommit[]>();
    const bySeq = new Map<number, LedgerCommit>();
    let seq = 0;
    let hash = '';
    let broken = false;
    for (const line of text.slice(0, end).split('\n').slice(0, -1)) {
      let parsed: LedgerLine | null;
      try {
        parsed = JSON.parse(line) as LedgerLine;
      } catch {
        parsed = null;
      }
      const { hash: claimed, ...body } = parsed ?? ({ hash: '' } as LedgerLine);
      if (!parsed || parsed.prevHash !== hash || parsed.seq !== seq + 1 || lineHash(body) !== claimed) {
        broken = true;
        break;
      }
      this.index(parsed, byRequest, bySeq);
      seq = parsed.seq;
      hash = parsed.hash;
    }
    return { byRequest, bySeq, seq, hash, torn, broken };
  }

  private index(line: LedgerLine, byRequest: Map<string, LedgerCommit[]>, bySeq: Map<number, LedgerCommit>) {
    if (line.kind === 'answer') {
      const commit = bySeq.get(line.commit);
      if (commit && commit.answerHash === null) commit.answerHash = line.answerHash;
      return;
    }
    const { requestHash, contextHash, canvasId, nodeId, questionHash, questionAuthor, seq, at } = line;
    const recorded: LedgerCommit = {
      requestHash,
      ...(contextHash !== undefined ? { contextHash } : {}),
      canvasId,
      nodeId,
      questionHash,
      questionAuthor,
      seq,
      at,
      answerHash: null,
    };
    bySeq.set(seq, recorded);
    byRequest.set(requestHash, [...(byRequest.get(requestHash) ?? []), recorded]);
  }

  /** Every commit of `requestHash` (a replay of an identical request is a commit of its own), oldest first. */
  async recorded(requestHash: string): Promise<readonly LedgerCommit[]> {
    return (await this.load()).byRequest.get(requestHash) ?? [];
  }

  /** Records a commit; returns its line number, which `answered` names. */
  async commit(fields: CommitFields): Promise<number> {
    const line = await this.append((seq, at, prevHash) => ({ kind: 'commit', seq, at, ...fields, prevHash }));
    return line.seq;
  }

  /** Records the SHA-256 of the answer the server streamed to the end for commit `commit`. */
  async answered(commit: number, answerHash: string): Promise<void> {
    await this.append((seq, at, prevHash) => ({ kind: 'answer', seq, at, commit, answerHash, prevHash }));
  }

  /**
   * Appends wait their turn, and those that arrive while a write is under way go together in the next one (a model
   * set's answers commit at about the same moment): one `appendFile` of whole lines, each chained to the one before
   * it exactly as one at a time, so a crash mid-write still leaves whole lines and at most one torn last line.
   */
  private append(make: MakeLine): Promise<LedgerLine> {
    if (this.closed)
      return Promise.reject(Object.assign(new Error('The commit ledger is closed.'), { code: 'closed' }));
    return new Promise((resolve, reject) => {
      this.waiting.push({ make, resolve, reject });
      this.writing ??= this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0);
        try {
          const lines = await this.appendNow(batch.map((each) => each.make));
          batch.forEach((each, index) => each.resolve(lines[index]!));
        } catch (error) {
          // A write that failed part-way may have left part of its lines: the next append reads the file again,
          // so its sequence and chain follow what is on disk and a torn tail is cut first.
          this.loaded = null;
          await this.closeFile();
          for (const each of batch) each.reject(error);
        }
      }
    } finally {
      this.writing = null;
    }
  }

  private async closeFile(): Promise<void> {
    const file = this.file;
    this.file = null;
    await file?.close().catch(() => undefined);
  }

  /** Waits for the appends under way, then lets the journal go (the server's close). */
  async close(): Promise<void> {
    this.closed = true;
    while (this.writing) await this.writing;
    await this.closeFile();
  }

  private async appendNow(makes: MakeLine[]): Promise<LedgerLine[]> {
    const state = await this.load();
    const lines: LedgerLine[] = [];
    let seq = state.seq;
    let hash = state.hash;
    for (const make of makes) {
      const body = make(seq + 1, this.now(), hash);
      const line = { ...body, hash: lineHash(body) };
      lines.push(line);
      seq = line.seq;
      hash = line.hash;
    }
    if (!this.file) {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
      this.file = await open(this.path, 'a', 0o600);
    }
    if (state.torn !== null) {
      // Appends land at the end whatever the length, so the tail is cut through the path.
      await truncate(this.path, state.torn);
      state.torn = null;
    }
    await this.file.appendFile(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    // Past a broken line nothing is read back as recorded: the new lines are written, never indexed.
    for (const line of lines) if (!state.broken) this.index(line, state.byRequest, state.bySeq);
    state.seq = seq;
    state.hash = hash;
    return lines;
  }
}

/** Where the ledger lives under a Weft home. */
export function commitLedgerDirectory(home: string): string {
  return join(home, 'ledger');
}
