import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommitLedger } from './commit-ledger.ts';

/**
 * Issue 27.3: the server's own record of the requests it committed and the answers it streamed, which memory reads
 * as its only evidence. It survives a restart, keeps every commit of one request hash, shrugs off a torn append and
 * vouches for nothing from a line that was altered on disk.
 */
let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-ledger-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const path = () => join(directory, 'commits.jsonl');
const fields = (nodeId: string) => ({
  requestHash: 'a'.repeat(64),
  canvasId: 'alpha',
  nodeId,
  questionHash: 'b'.repeat(64),
  questionAuthor: 'person' as const,
});

describe('CommitLedger', () => {
  it('keeps each commit of a request with its answer, read back after a restart', async () => {
    const ledger = new CommitLedger(directory, () => 7);
    const first = await ledger.commit(fields('q1'));
    const second = await ledger.commit(fields('q1'));
    await ledger.answered(second, 'c'.repeat(64));
    await ledger.answered(first, 'd'.repeat(64));
    const expected = [
      { ...fields('q1'), seq: 1, at: 7, answerHash: 'd'.repeat(64) },
      { ...fields('q1'), seq: 2, at: 7, answerHash: 'c'.repeat(64) },
    ];
    expect(await ledger.recorded('a'.repeat(64))).toEqual(expected);
    expect(await new CommitLedger(directory).recorded('a'.repeat(64))).toEqual(expected);
    expect(await ledger.recorded('e'.repeat(64))).toEqual([]);
  });

  it('commits made at the same moment (a model set’s) each get their own line, chained, read back after a restart', async () => {
    const ledger = new CommitLedger(directory, () => 7);
    const seqs = await Promise.all(Array.from({ length: 32 }, (_, index) => ledger.commit(fields(`q${index}`))));
    expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, index) => index + 1));
    await Promise.all(seqs.map((seq) => ledger.answered(seq, 'c'.repeat(64))));
    const reread = await new CommitLedger(directory).recorded('a'.repeat(64));
    expect(reread.map((commit) => commit.nodeId)).toEqual(Array.from({ length: 32 }, (_, index) => `q${index}`));
    expect(reread.every((commit) => commit.answerHash === 'c'.repeat(64))).toBe(true);
    expect((await readFile(path(), 'utf8')).split('\n')).toHaveLength(65);
  });

  it('cuts a torn last line at the next append', async () => {
    await new CommitLedger(directory).commit(fields('q1'));
    await appendFile(path(), '{"kind":"commit","seq":2,');
    const ledger = new CommitLedger(directory);
    const seq = await ledger.commit(fields('q2'));
    expect(seq).toBe(2);
    const reread = await new CommitLedger(directory).recorded('a'.repeat(64));
    expect(reread.map((entry) => entry.nodeId)).toEqual(['q1', 'q2']);
    expect((await readFile(path(), 'utf8')).split('\n')).toHaveLength(3);
  });

  it('vouches for nothing from a line altered on disk onwards', async () => {
    const ledger = new CommitLedger(directory);
    const seq = await ledger.commit(fields('q1'));
    await ledger.answered(seq, 'c'.repeat(64));
    await ledger.commit(fields('q2'));
    const lines = (await readFile(path(), 'utf8')).split('\n');
    // The answer's hash swapped for another answer's: the line's own hash no longer covers it.
    lines[1] = lines[1]!.replace('c'.repeat(64), 'f'.repeat(64));
    await writeFile(path(), lines.join('\n'));
    const reread = await new CommitLedger(directory).recorded('a'.repeat(64));
    expect(reread).toEqual([{ ...fields('q1'), seq: 1, at: expect.any(Number), answerHash: null }]);
  });

  it('after a write that failed, reads the journal again and chains the next line to what is on disk', async () => {
    const first = new CommitLedger(directory);
    await first.commit(fields('q1'));
    await first.close();
    // A closed ledger (the server stopped) writes nothing more.
    await expect(first.commit(fields('late'))).rejects.toMatchObject({ code: 'closed' });
    const written = await readFile(path(), 'utf8');
    // The journal cannot be opened (a folder stands in its place): the commit is refused, nothing is recorded.
    await rm(path());
    await mkdir(path());
    const ledger = new CommitLedger(directory);
    await expect(ledger.commit(fields('q2'))).rejects.toMatchObject({ code: 'EISDIR' });
    await rm(path(), { recursive: true });
    await writeFile(path(), written);
    expect(await ledger.commit(fields('q3'))).toBe(2);
    await ledger.close();
    const reread = await new CommitLedger(directory).recorded('a'.repeat(64));
    expect(reread.map((entry) => [entry.seq, entry.nodeId])).toEqual([
      [1, 'q1'],
      [2, 'q3'],
    ]);
  });
});
