import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexedFixtures } from '../../tests/support/indexed-fixtures.ts';
import { verifyArchive } from './archive-verify.ts';
import { CLAUDE_BASIC, CLAUDE_MULTI_TURN } from './fixture-roots.ts';
import type { ArchiveEntry } from './session-archive.ts';
import { WhyIndex } from './why-index.ts';

const BASIC_SESSION = 'fb8acab2-b67b-454f-91b5-f87d156f0f09';
const indexed = indexedFixtures('weft-archive-verify-');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The entry file (`<hash>.json`) of a kept session file. */
function entryFile(index: WhyIndex, path: string): string {
  const folder = join(index.archive.directory, 'claude-code');
  const name = readdirSync(folder).find(
    (candidate) =>
      candidate.endsWith('.json') &&
      (JSON.parse(readFileSync(join(folder, candidate), 'utf8')) as ArchiveEntry).path === path,
  );
  return join(folder, name!);
}

describe('the archive proves what it kept', () => {
  it('records the SHA-256 of the bytes kept, also across an append, and verify re-reads every copy as intact', async () => {
    const { space, index } = await indexed();
    const basic = join(space.roots[0]!, CLAUDE_BASIC);
    expect(index.archive.entry(basic, 'claude-code')!.sha256).toBe(sha256(readFileSync(basic)));
    // A file that grows gets another gzip member; the hash covers the whole file, not only the new part.
    const grown = join(space.roots[0]!, CLAUDE_MULTI_TURN);
    const lines = readFileSync(grown, 'utf8').split('\n');
    writeFileSync(grown, `${lines.slice(0, 35).join('\n')}\n`);
    await index.rebuild();
    const before = index.archive.entry(grown, 'claude-code')!;
    appendFileSync(grown, lines.slice(35).join('\n'));
    expect(await index.refresh()).toMatchObject({ appendReads: 1, archived: 1 });
    const after = index.archive.entry(grown, 'claude-code')!;
    expect(after.compressedBytes).toBeGreaterThan(before.compressedBytes);
    expect(after.sha256).toBe(sha256(readFileSync(grown)));

    const entries = index.archive.list();
    const result = await verifyArchive(index.archive.directory);
    expect(result).toMatchObject({ copies: entries.length, unverified: 0, bad: 0, firstBad: null });
    expect(result.bytes).toBe(entries.reduce((total, entry) => total + entry.bytes, 0));
    expect(index.status().archive.lastVerification).toEqual(result);
  });

  it('names the first bad copy (in path order): a flipped byte, a truncated copy, a lost copy', async () => {
    const { space, index } = await indexed();
    const basic = join(space.roots[0]!, CLAUDE_BASIC);
    const multi = join(space.roots[0]!, CLAUDE_MULTI_TURN);
    const [first, second] = [basic, multi].sort();
    // Damage the later one first: the first in path order must still be named once it is damaged too.
    const secondCopy = index.archive.copyPath(index.archive.entry(second!, 'claude-code')!);
    const bytes = readFileSync(secondCopy);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(secondCopy, bytes);
    let result = await verifyArchive(index.archive.directory);
    expect(result).toMatchObject({ bad: 1, firstBad: { path: second, runner: 'claude-code' } });

    const firstCopy = index.archive.copyPath(index.archive.entry(first!, 'claude-code')!);
    writeFileSync(firstCopy, readFileSync(firstCopy).subarray(0, 20));
    result = await verifyArchive(index.archive.directory);
    expect(result.bad).toBe(2);
    expect(result.firstBad).toMatchObject({ path: first, reason: expect.stringMatching(/^its copy is 20 bytes/) });
    expect(index.status().archive.lastVerification!.bad).toBe(2);

    rmSync(firstCopy);
    result = await verifyArchive(index.archive.directory);
    expect(result.firstBad).toMatchObject({ path: first, reason: 'its copy is missing' });
  });

  it('a copy kept by older Weft (no hash) is unverified, never bad, and gets its hash when it is next copied', async () => {
    const { space, index } = await indexed();
    const grown = join(space.roots[0]!, CLAUDE_MULTI_TURN);
    const meta = entryFile(index, grown);
    const { sha256: _dropped, ...old } = JSON.parse(readFileSync(meta, 'utf8')) as ArchiveEntry;
    writeFileSync(meta, JSON.stringify(old));
    expect(await verifyArchive(index.archive.directory)).toMatchObject({ unverified: 1, bad: 0 });
    expect(index.status().archive.unhashed).toBe(1);
    appendFileSync(grown, `${readFileSync(grown, 'utf8').split('\n')[0]}\n`);
    expect(await index.refresh()).toMatchObject({ archived: 1 });
    expect(index.archive.entry(grown, 'claude-code')!.sha256).toBe(sha256(readFileSync(grown)));
    expect(await verifyArchive(index.archive.directory)).toMatchObject({ unverified: 0, bad: 0 });
  });

  it('exports a deleted session byte for byte, never over a file, never under a root or WEFT_HOME', async () => {
    const { space, index } = await indexed();
    const basic = join(space.roots[0]!, CLAUDE_BASIC);
    const original = readFileSync(basic);
    rmSync(basic);
    await index.refresh();
    const out = join(space.directory, 'exports');
    const [written] = await index.exportSession(BASIC_SESSION.slice(0, 8), out);
    expect(written).toMatchObject({ source: basic, bytes: original.length, sha256: sha256(original), verified: true });
    expect(readFileSync(written!.path).equals(original)).toBe(true);
    expect(readdirSync(out)).toEqual([`${BASIC_SESSION}.jsonl`]);

    writeFileSync(written!.path, 'mine');
    await expect(index.exportSession(BASIC_SESSION, out)).rejects.toMatchObject({ code: 'export-file-exists' });
    expect(readFileSync(written!.path, 'utf8')).toBe('mine');
    expect(readdirSync(out)).toEqual([`${BASIC_SESSION}.jsonl`]);

    const underRoot = join(space.roots[1]!, 'exports');
    await expect(index.exportSession(BASIC_SESSION, underRoot)).rejects.toMatchObject({
      code: 'export-folder-refused',
    });
    const link = join(space.directory, 'looks-elsewhere');
    symlinkSync(space.roots[0]!, link);
    await expect(index.exportSession(BASIC_SESSION, join(link, 'new'))).rejects.toMatchObject({
      code: 'export-folder-refused',
      message: expect.stringContaining('it leads to'),
    });
    await expect(index.exportSession(BASIC_SESSION, join(space.weftHome, 'out'))).rejects.toMatchObject({
      code: 'export-folder-refused',
    });
    await expect(index.exportSession('nosuchsession', out)).rejects.toMatchObject({ code: 'turn-not-found' });
  });
});
