import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from './start-server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'weft-one-server-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const quiet = { info() {}, warn() {}, error() {} };
const start = () => startServer({ port: 0, home, env: {}, ollamaUrl: null, logger: quiet });
const serverFile = async () => JSON.parse(await readFile(join(home, 'server.json'), 'utf8')) as { token: string };
/** A process id that no longer exists: a child that has already exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid;

describe('one server per WEFT_HOME', () => {
  it('a second server on the same home refuses to start, naming the running one, and leaves its server.json', async () => {
    const first = await start();
    try {
      const refused = (await start().then(
        () => null,
        (error: unknown) => error,
      )) as { code: string; message: string } | null;
      expect(refused?.code).toBe('already-running');
      expect(refused?.message).toContain(`${first.origin} (pid ${process.pid})`);
      expect((await serverFile()).token).toBe(first.token);

      // The web-mode process says so in one line and exits 1.
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
        cwd: root,
        env: { ...process.env, WEFT_PORT: '0', WEFT_HOME: home },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (part: Buffer) => (stderr += part.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(new RegExp(`^weft: Weft is already running for .* at ${first.origin} \\(pid \\d+\\)`));
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect((await serverFile()).token).toBe(first.token);
    } finally {
      await first.close();
    }
    // Once it has stopped, a new one starts.
    const next = await start();
    await next.close();
  });

  it('starts over a server.json left by a server that is gone', async () => {
    await writeFile(
      join(home, 'server.json'),
      JSON.stringify({ port: 1, token: 'old', pid: deadPid(), origin: 'http://127.0.0.1:1' }),
    );
    const running = await start();
    expect((await serverFile()).token).toBe(running.token);
    await running.close();
    expect(existsSync(join(home, 'server.json'))).toBe(false);
  });

  it("never deletes another server's server.json when it stops", async () => {
    const running = await start();
    const other = { port: 9, token: 'another-server', pid: process.ppid, origin: 'http://127.0.0.1:9' };
    await writeFile(join(home, 'server.json'), JSON.stringify(other));
    await running.close();
    expect(await serverFile()).toEqual(other);
  });

  it('removes temp files a crash left in canvases/ at start, but not those of a process still writing', async () => {
    const canvases = join(home, 'canvases');
    await start().then((running) => running.close());
    const orphan = `.alpha.weft.json.${deadPid()}.0123456789ab.tmp`;
    const live = `.beta.weft.json.${process.ppid}.0123456789ab.tmp`;
    await writeFile(join(canvases, orphan), '{"half":');
    await writeFile(join(canvases, live), '{"still writing":');
    await writeFile(join(canvases, 'notes.tmp'), 'not one of ours');
    const running = await start();
    expect((await readdir(canvases)).sort()).toEqual([live, 'notes.tmp'].sort());
    await running.close();
  });
});
