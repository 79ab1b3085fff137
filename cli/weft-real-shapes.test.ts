import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDirectory } from '../runtime/index/fixture-roots.ts';
import { runWeft } from './run-weft.ts';

/**
 * `weft index`, `status` and `recall` over files shaped like the real ones that went wrong (issue 11): a
 * continued Claude Code session, a pretty-printed and a compressed Codex rollout, the pi author's session with
 * a glued line, and a JSON Lines file no runner wrote.
 */
const CONTINUED = '8a4b6c2d-7e9f-4a1b-8c3d-5e6f70819203';

describe('weft over real-shaped session files', () => {
  let directory: string;
  let env: NodeJS.ProcessEnv;
  let indexed: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'weft-shapes-cli-'));
    const fixtures = fixturesDirectory();
    const claude = join(directory, 'claude', 'projects');
    const codex = join(directory, 'codex', 'sessions');
    const pi = join(directory, 'pi', 'sessions');
    cpSync(join(fixtures, 'sessions/claude-code/constructed/projects'), claude, { recursive: true });
    cpSync(join(fixtures, 'sessions/codex/constructed/sessions'), codex, { recursive: true });
    mkdirSync(pi, { recursive: true });
    cpSync(join(fixtures, 'sessions/pi/badlogic-pi-mono/session.jsonl'), join(pi, 'session.jsonl'));
    writeFileSync(join(codex, 'metrics.jsonl'), '{"metric":"latency","value":12}\n');
    mkdirSync(join(directory, 'memory'));
    env = {
      ...process.env,
      HOME: join(directory, 'home'),
      WEFT_HOME: join(directory, 'weft-home'),
      WEFT_SESSION_ROOTS: [claude, codex, pi].join(delimiter),
      WEFT_MEMORY_ROOTS: join(directory, 'memory'),
    };
    indexed = await runWeft(['index'], { env });
  });

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('index reports the file it could not read, with its reason, and prints the parse totals', () => {
    expect(indexed.code).toBe(0);
    expect(indexed.stderr).toMatch(/could not read .*metrics\.jsonl: ATLAS_NOT_A_SESSION/);
    // 3 Claude files, 3 Codex rollouts (the compressed copy beside its plain file is not listed), 1 pi file.
    expect(indexed.stdout).toMatch(/^indexed 7 of 8 files /);
    expect(indexed.stdout).toMatch(
      /\nparsed \d+ records in 7 session files: 0 invalid JSON, 0 invalid UTF-8, 1 glued, /,
    );
    expect(indexed.stdout).toContain('; 1 files failed');
  });

  it('status prints the parse totals, and --json gives them per file', async () => {
    const text = await runWeft(['status'], { env });
    expect(text.stdout).toMatch(
      /\nparsing +\d+ records in 7 session files: 0 invalid JSON, 0 invalid UTF-8, 1 glued, 0 wrong shape, 0 oversized, /,
    );
    const status = JSON.parse((await runWeft(['status', '--json'], { env })).stdout) as {
      parse: { files: number; gluedObjects: number; invalidJson: number };
      parseByFile: { path: string; runner: string; report: { gluedObjects: number; records: number } }[];
    };
    expect(status.parse).toMatchObject({ files: 7, gluedObjects: 1, invalidJson: 0 });
    expect(status.parseByFile).toHaveLength(7);
    const glued = status.parseByFile.filter((file) => file.report.gluedObjects > 0);
    expect(glued.map((file) => file.path)).toEqual([join(directory, 'pi', 'sessions', 'session.jsonl')]);
    const pretty = status.parseByFile.find((file) => file.path.includes('2026-03-16T08-30-00'));
    expect(pretty).toMatchObject({ runner: 'codex', report: { records: 10 } });
    expect(status.parseByFile.some((file) => file.path.endsWith('.jsonl.zst'))).toBe(true);
  });

  it('recalls the continued session by its own id and turn 1, with the turn status', async () => {
    const recalled = await runWeft(['recall', CONTINUED, '1'], { env });
    expect(recalled.code).toBe(0);
    expect(recalled.stdout).toContain(`session ${CONTINUED}  turn 1`);
    expect(recalled.stdout).toContain('status interrupted tool use');
    expect(recalled.stdout).toContain('Write a CHANGELOG for the release');
    expect(recalled.stdout).not.toContain('[Request interrupted');
    expect(recalled.stdout).toMatch(/Write \[write\] \(error\)/);
  });

  it('why shows the failed write as `write (failed)`', async () => {
    const why = await runWeft(['why', '/home/dev/shop/CHANGELOG.md'], { env });
    expect(why.code).toBe(0);
    expect(why.stdout).toContain('write (failed) /home/dev/shop/CHANGELOG.md');
  });
});
