import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('server/main.ts (the web-mode process)', () => {
  it('prints its link, serves the API with that token, and cleans up on SIGTERM', async () => {
    const home = await mkdtemp(join(tmpdir(), 'weft-main-'));
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
      cwd: root,
      env: {
        ...process.env,
        WEFT_PORT: '0',
        WEFT_HOME: home,
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: '',
        OPENROUTER_API_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no startup line')), 20_000);
        createInterface({ input: child.stdout }).once('line', (text) => {
          clearTimeout(timer);
          resolve(text);
        });
      });
      const match = /^Weft is running: (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]+)$/.exec(line);
      expect(match, line).not.toBeNull();
      const [, origin, port, token] = match!;
      const info = JSON.parse(await readFile(join(home, 'server.json'), 'utf8'));
      expect(info).toMatchObject({ port: Number(port), token, pid: child.pid });
      const health = await fetch(`${origin}/api/health`, { headers: { authorization: `Bearer ${token}` } });
      expect(await health.json()).toMatchObject({ ok: true });
      expect((await fetch(`${origin}/api/health`)).status).toBe(401);

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(existsSync(join(home, 'server.json'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await rm(home, { recursive: true, force: true });
    }
  });

  it('refuses a bad WEFT_PORT with a clear message', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
      env: { ...process.env, WEFT_PORT: 'abc' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (part: Buffer) => (stderr += part.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('WEFT_PORT must be a port number');
  });
});
