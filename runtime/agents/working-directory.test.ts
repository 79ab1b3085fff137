import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWorkingDirectory } from './working-directory.ts';

// A real folder tree in tmp: <scratch>/{repo, sessions/project, holder/weft-home}.
let scratch = '';
beforeEach(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'weft-cwd-')));
  for (const folder of ['repo', 'sessions/project', 'holder/weft-home/sub'])
    mkdirSync(join(scratch, folder), { recursive: true });
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const check = (folder: string) =>
  checkWorkingDirectory(folder, [join(scratch, 'sessions')], join(scratch, 'holder', 'weft-home')).then(
    (path) => path,
    (error: { code: string }) => error.code,
  );

describe('checkWorkingDirectory', () => {
  it('a folder apart from the session roots and Weft’s home is accepted', async () => {
    expect(await check(join(scratch, 'repo'))).toBe(join(scratch, 'repo'));
  });

  it('a folder that holds a session root is refused, also through a link to it', async () => {
    expect(await check(scratch)).toBe('AGENT_CWD_SESSION_ROOT');
    symlinkSync(scratch, join(scratch, 'repo', 'up'));
    expect(await check(join(scratch, 'repo', 'up'))).toBe('AGENT_CWD_SESSION_ROOT');
    expect(await check(join(scratch, 'sessions', 'project'))).toBe('AGENT_CWD_SESSION_ROOT');
  });

  it('Weft’s home, a folder inside it or a folder that holds it is refused with its own code', async () => {
    expect(await check(join(scratch, 'holder'))).toBe('AGENT_CWD_WEFT_HOME');
    expect(await check(join(scratch, 'holder', 'weft-home'))).toBe('AGENT_CWD_WEFT_HOME');
    expect(await check(join(scratch, 'holder', 'weft-home', 'sub'))).toBe('AGENT_CWD_WEFT_HOME');
  });
});
