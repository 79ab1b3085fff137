import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sampleCanvas } from '../../tests/support/sample-canvas.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/** docs/spec.md §10: nothing is ever written under a session root, whatever symlinks lead there. */
let server: TestServer;
let scratch: string;
let sessionRoot: string;
let linkedRoot: string;
const savedRoots = process.env.WEFT_SESSION_ROOTS;

/** Every path under `folder`, so a test sees anything written anywhere inside it. */
async function everything(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true })).sort();
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'weft-backup-links-'));
  sessionRoot = join(scratch, 'codex-sessions');
  await mkdir(join(sessionRoot, '2026', '12'), { recursive: true });
  // The second root is itself a symlink (as `~/.claude` often is); folders inside its target are refused too.
  await mkdir(join(scratch, 'real-claude-projects'));
  linkedRoot = join(scratch, 'claude-projects');
  await symlink(join(scratch, 'real-claude-projects'), linkedRoot);
  process.env.WEFT_SESSION_ROOTS = [sessionRoot, linkedRoot].join(':');
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
  await rm(scratch, { recursive: true, force: true });
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
});
afterEach(async () => {
  await put({ backupFolder: null });
});

const put = (body: unknown) =>
  server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function saveCanvas(id: string, name: string): Promise<void> {
  // A save over an existing record names the revision it was based on (If-Match).
  const current = await server.api(`/api/canvases/${id}`);
  const revision = current.status === 200 ? current.headers.get('etag') : null;
  const response = await server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(revision ? { 'if-match': revision } : {}) },
    body: JSON.stringify(sampleCanvas(id, name)),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

describe('the backup folder is judged by its real path', () => {
  it('refuses, when configured, a symlink into a session root, into a root reached by a symlink, or into canvases/', async () => {
    const cases = {
      'into-root': join(sessionRoot, '2026'),
      'into-linked-root-target': join(scratch, 'real-claude-projects'),
      'into-canvases': join(server.home, 'canvases'),
    };
    for (const [name, target] of Object.entries(cases)) await symlink(target, join(scratch, name));
    const refused = [
      join(scratch, 'into-root'),
      join(scratch, 'into-root', 'not-yet-made', 'deeper'),
      join(scratch, 'into-linked-root-target'),
      join(scratch, 'real-claude-projects', 'backups'),
      join(scratch, 'into-canvases'),
    ];
    for (const folder of refused) {
      const response = await put({ backupFolder: folder });
      expect(response.status, folder).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code, folder).toBe('backup-folder-refused');
      expect(body.error.message).toMatch(/inside (the session root|Weft's own canvas records)/);
    }
    expect(((await (await server.api('/api/settings')).json()) as { backupFolder: unknown }).backupFolder).toBeNull();
    expect(await everything(sessionRoot)).toEqual(['2026', join('2026', '12')]);
    expect(await everything(join(scratch, 'real-claude-projects'))).toEqual([]);
  });

  it('a folder later swapped for a symlink into a session root gets nothing: the flush refuses with a code', async () => {
    const folder = join(scratch, 'swapped-to-root');
    await mkdir(folder);
    expect((await put({ backupFolder: folder })).status).toBe(200);
    await saveCanvas('kept', 'Kept plan');
    await server.context.backup.flush();
    expect(await readdir(folder)).toEqual(['Kept plan.weft.json']);

    // Swapped behind Weft's back: the folder is now a link into the session root.
    await rm(folder, { recursive: true });
    await symlink(join(sessionRoot, '2026', '12'), folder);
    const before = server.logger.lines.length;
    await saveCanvas('kept', 'Kept plan');
    await saveCanvas('other', 'Other plan');
    await server.context.backup.flush();
    expect(await everything(sessionRoot)).toEqual(['2026', join('2026', '12')]);
    const warnings = server.logger.lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warnings.filter((line) => line.message === 'backup failed').map((line) => line.code)).toEqual([
      'backup-folder-refused',
      'backup-folder-refused',
    ]);
  });

  it('a folder whose parent is swapped for a symlink creates no folder inside the root', async () => {
    const parent = join(scratch, 'parent-swapped');
    await mkdir(parent);
    expect((await put({ backupFolder: join(parent, 'weft', 'backups') })).status).toBe(200);
    await rm(parent, { recursive: true });
    await symlink(linkedRoot, parent);
    await saveCanvas('nested', 'Nested plan');
    await server.context.backup.flush();
    expect(await everything(join(scratch, 'real-claude-projects'))).toEqual([]);
  });

  it('a folder later swapped for a symlink into canvases/ adds no file beside the records', async () => {
    const folder = join(scratch, 'swapped-to-canvases');
    await mkdir(folder);
    expect((await put({ backupFolder: folder })).status).toBe(200);
    await rm(folder, { recursive: true });
    await symlink(join(server.home, 'canvases'), folder);
    await saveCanvas('records', 'Records plan');
    await server.context.backup.flush();
    const files = await readdir(join(server.home, 'canvases'));
    expect(
      files.filter(
        (file) => (!/^[A-Za-z0-9_-]+\.(weft|head)\.json$/.test(file) && file !== 'anchors.jsonl') || file.includes(' '),
      ),
    ).toEqual([]);
    expect(files).not.toContain('Records plan.weft.json');
  });
});
