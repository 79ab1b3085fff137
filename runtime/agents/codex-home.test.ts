import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareCodexHome } from './codex-home.ts';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('prepareCodexHome', () => {
  it("starts from a copy of the person's config, then keeps its own; the person's file is never changed", () => {
    root = mkdtempSync(join(tmpdir(), 'weft-codex-home-'));
    const personal = join(root, 'home', '.codex', 'config.toml');
    mkdirSync(join(root, 'home', '.codex'), { recursive: true });
    writeFileSync(personal, 'model = "gpt-5.5"\n');
    const codexHome = prepareCodexHome(join(root, 'weft', 'agents', 'codex-home'), { HOME: join(root, 'home') });
    expect(statSync(codexHome).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).toBe('model = "gpt-5.5"\n');
    writeFileSync(join(codexHome, 'config.toml'), 'model = "gpt-5.5"\n[projects."/repo"]\ntrust_level = "trusted"\n');
    writeFileSync(personal, 'model = "other"\n');
    prepareCodexHome(codexHome, { HOME: join(root, 'home') });
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).toContain('trust_level');
    expect(readFileSync(personal, 'utf8')).toBe('model = "other"\n');
  });
});
