import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canvasesDirectory, ensureWeftHome, resolveWeftHome } from './weft-home.ts';

let made: string[] = [];
afterEach(() => {
  for (const path of made) rmSync(path, { recursive: true, force: true });
  made = [];
});

describe('WEFT_HOME (one resolver for server, desktop, CLI and index)', () => {
  it('is WEFT_HOME, resolved, or ~/.weft', () => {
    expect(resolveWeftHome({ WEFT_HOME: ' relative/home ' }, '/home/person')).toBe(
      join(process.cwd(), 'relative/home'),
    );
    expect(resolveWeftHome({}, '/home/person')).toBe('/home/person/.weft');
  });

  it('creates the home and canvases/ 0700 and tightens a looser existing home', () => {
    const home = join(mkdtempSync(join(tmpdir(), 'weft-home-')), 'home');
    made.push(home);
    mkdirSync(home, { mode: 0o755 });
    chmodSync(home, 0o755);
    ensureWeftHome(home);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(canvasesDirectory(home)).mode & 0o777).toBe(0o700);
  });

  it('reports a home it cannot make private instead of carrying on', () => {
    // procfs refuses chmod even to root: the failure surfaces (it used to be swallowed).
    expect(() => ensureWeftHome('/proc/self')).toThrow(/EPERM/);
  });
});
