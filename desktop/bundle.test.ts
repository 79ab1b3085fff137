import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the bundled desktop main process', () => {
  it('builds with esbuild and starts the real server behind a locked-down window (electron faked)', async () => {
    await promisify(execFile)(process.execPath, [join(root, 'desktop/build-desktop.mjs')], { cwd: root });
    // Files the bundle loads by URL next to itself must be there: without the guard the Pi lane cannot start.
    const bundle = await readFile(join(root, 'dist/desktop/main.mjs'), 'utf8');
    expect(bundle).toContain('new URL("./pi-guard-extension.mjs", import.meta.url)');
    expect(await readFile(join(root, 'dist/desktop/pi-guard-extension.mjs'), 'utf8')).toBe(
      await readFile(join(root, 'runtime/agents/pi-guard-extension.mjs'), 'utf8'),
    );
    // The bundled session reader answers a real read (bulk indexing in the desktop app runs through it).
    expect(bundle).toContain('"./session-read-worker.mjs"');
    const sessions = join(root, 'tests/fixtures/sessions/claude-code');
    const worker = new Worker(join(root, 'dist/desktop/session-read-worker.mjs'), {
      workerData: { roots: [sessions] },
    });
    try {
      const answer = await new Promise<{
        id: number;
        result?: { runner: string | null; sessions: unknown[] };
        error?: unknown;
      }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({
          id: 1,
          path: join(sessions, 'jazzyalex-agent-sessions/Resources/Fixtures/stage0/agents/claude/small.jsonl'),
          resume: null,
        });
      });
      expect(answer.error).toBeUndefined();
      expect(answer.id).toBe(1);
      expect(answer.result?.runner).toBe('claude-code');
      expect(answer.result?.sessions.length).toBeGreaterThan(0);
    } finally {
      await worker.terminate();
    }
    const home = await mkdtemp(join(tmpdir(), 'weft-bundle-'));
    try {
      const child = spawn(
        process.execPath,
        ['--import', join(root, 'desktop/testing/register-fake-electron.mjs'), join(root, 'dist/desktop/main.mjs')],
        {
          env: { ...process.env, WEFT_HOME: home },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      child.stdout.on('data', (part: Buffer) => (stdout += part.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(0);
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines).toContainEqual({ protocol: 'weft' });
      expect(lines).toContainEqual({ menu: ['File', 'Edit', 'View'] });
      expect(lines.find((line) => line.window)!.window).toMatchObject({
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        preload: join(root, 'dist/desktop/preload.cjs'),
      });
      expect(lines.find((line) => line.loaded)!.loaded).toEqual({
        status: 302,
        location: '/',
        health: { ok: true, version: expect.stringMatching(/^\d+\.\d+\.\d+/) },
      });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
