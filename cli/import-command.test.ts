import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CanvasStore } from '../runtime/fs/canvas-store.ts';
import { startTestServer } from '../tests/support/test-server.ts';
import { runWeft } from './run-weft.ts';

const FIXTURES = join(import.meta.dirname, '../tests/fixtures/imports');

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'weft-cli-import-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const stored = async (at: string) => (await new CanvasStore({ directory: join(at, 'canvases') }).list()).canvases;

describe('weft import (the built CLI, spawned)', () => {
  it('imports an export straight into WEFT_HOME when no Weft is running', async () => {
    const result = await runWeft(['import', join(FIXTURES, 'claude-conversations.json'), '--json'], {
      env: { ...process.env, WEFT_HOME: home },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { via: string; conversations: number; canvasIds: string[] };
    expect(summary).toMatchObject({ via: 'direct', conversations: 2 });
    expect((await stored(home)).map((canvas) => canvas.id).sort()).toEqual([...summary.canvasIds].sort());
  });

  it('refuses a malformed export with its line and column, exit 1, nothing stored', async () => {
    const result = await runWeft(['import', join(FIXTURES, 'chatgpt-malformed.json')], {
      env: { ...process.env, WEFT_HOME: home },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^weft: The file is not valid JSON: .* \(line 265, column 5\)\n$/);
    expect(await stored(home)).toEqual([]);
  });

  it('goes through the running Weft, so its open pages hear of the new canvases', async () => {
    const server = await startTestServer({ home });
    try {
      const result = await runWeft(['import', join(FIXTURES, 'chatgpt-conversations.json')], {
        env: { ...process.env, WEFT_HOME: home },
      });
      expect(result.stdout).toBe(
        `imported 2 conversations from ${join(FIXTURES, 'chatgpt-conversations.json')} into 2 canvases (through the running Weft)\n`,
      );
      expect((await stored(home)).length).toBe(2);
      expect(server.logger.lines.some((line) => line.includes('import done'))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
