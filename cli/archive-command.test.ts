import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexedFixtures } from '../tests/support/indexed-fixtures.ts';
import { CLAUDE_BASIC } from '../runtime/index/fixture-roots.ts';
import { runWeft } from './run-weft.ts';

const BASIC_SESSION = 'fb8acab2-b67b-454f-91b5-f87d156f0f09';
const indexed = indexedFixtures('weft-archive-cli-');

describe('weft archive (the CLI, spawned)', () => {
  it('weft archive verify and export (the CLI, spawned): exit 0 intact, 1 naming the first bad copy', async () => {
    const { space, index } = await indexed();
    const intact = await runWeft(['archive', 'verify', '--json'], { env: space.env });
    expect(intact.code).toBe(0);
    const report = JSON.parse(intact.stdout) as { intact: boolean; copies: number; bad: number };
    expect(report).toMatchObject({ intact: true, copies: index.archive.list().length, bad: 0 });

    const out = join(space.directory, 'cli-out');
    const exported = await runWeft(['archive', 'export', BASIC_SESSION, out], { env: space.env });
    expect(exported).toMatchObject({ code: 0, stderr: '' });
    expect(
      readFileSync(join(out, `${BASIC_SESSION}.jsonl`)).equals(readFileSync(join(space.roots[0]!, CLAUDE_BASIC))),
    ).toBe(true);
    const again = await runWeft(['archive', 'export', BASIC_SESSION, out], { env: space.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists; Weft does not overwrite it/);

    const basic = join(space.roots[0]!, CLAUDE_BASIC);
    const copy = index.archive.copyPath(index.archive.entry(basic, 'claude-code')!);
    const bytes = readFileSync(copy);
    bytes[bytes.length - 12]! ^= 0x01;
    writeFileSync(copy, bytes);
    const bad = await runWeft(['archive', 'verify'], { env: space.env });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`1 bad; first bad: ${basic} (claude-code): `);
    const status = await runWeft(['status'], { env: space.env });
    expect(status.stdout).toMatch(/verified {2}\d{4}-\d\d-\d\d \d\d:\d\dZ: \d+ copies 1 bad, first /);
  });
});
