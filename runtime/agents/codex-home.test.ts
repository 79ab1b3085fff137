import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareCodexHome } from './codex-home.ts';

let root = '';
afterEach(() => rmSync(root, { recursive: true, force: true }));

const PERSONAL = [
  'model = "gpt-5.5"',
  'model_provider = "corp"',
  'notify = ["/usr/local/bin/ping-me"]',
  'approval_policy = "never"',
  'sandbox_mode = "danger-full-access"',
  '',
  '[model_providers.corp]',
  'name = "Corp gateway"',
  'base_url = "http://127.0.0.1:9/v1"',
  'env_key = "CORP_KEY"',
  'wire_api = "responses"',
  '',
  '[model_providers.unused]',
  'name = "Other"',
  'base_url = "http://127.0.0.1:8/v1"',
  '',
  '[mcp_servers.x]',
  'command = "/usr/local/bin/x-server"',
  '',
  '[projects."/x"]',
  'trust_level = "trusted"',
  '',
].join('\n');

describe('prepareCodexHome', () => {
  it("seeds only the model and its provider from the person's config, whose file stays byte-identical", () => {
    root = mkdtempSync(join(tmpdir(), 'weft-codex-home-'));
    const personal = join(root, 'home', '.codex', 'config.toml');
    mkdirSync(join(root, 'home', '.codex'), { recursive: true });
    writeFileSync(personal, PERSONAL);
    const codexHome = prepareCodexHome(join(root, 'weft', 'agents', 'codex-home'), { HOME: join(root, 'home') });
    expect(statSync(codexHome).mode & 0o777).toBe(0o700);
    const written = readFileSync(join(codexHome, 'config.toml'), 'utf8');
    expect(parse(written)).toEqual({
      model: 'gpt-5.5',
      model_provider: 'corp',
      model_providers: {
        corp: { name: 'Corp gateway', base_url: 'http://127.0.0.1:9/v1', env_key: 'CORP_KEY', wire_api: 'responses' },
      },
    });
    const settings = written
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
    for (const left of [
      'mcp_servers',
      'notify',
      'projects',
      'trust_level',
      'approval_policy',
      'sandbox_mode',
      'unused',
    ])
      expect(settings).not.toContain(left);
    expect(readFileSync(personal, 'utf8')).toBe(PERSONAL);
  });

  it('rewrites its own config each time: what Codex or an older Weft left there does not stay', () => {
    root = mkdtempSync(join(tmpdir(), 'weft-codex-home-'));
    const codexHome = join(root, 'codex-home');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), PERSONAL);
    prepareCodexHome(codexHome, { HOME: join(root, 'no-home') });
    expect(parse(readFileSync(join(codexHome, 'config.toml'), 'utf8'))).toEqual({});
  });

  it("reads the person's CODEX_HOME when they set one; a config that is not TOML gives nothing", () => {
    root = mkdtempSync(join(tmpdir(), 'weft-codex-home-'));
    const theirs = join(root, 'their-codex');
    mkdirSync(theirs);
    writeFileSync(join(theirs, 'config.toml'), 'model = "o4"\n');
    const codexHome = prepareCodexHome(join(root, 'weft-codex'), { HOME: root, CODEX_HOME: theirs });
    expect(parse(readFileSync(join(codexHome, 'config.toml'), 'utf8'))).toEqual({ model: 'o4' });
    writeFileSync(join(theirs, 'config.toml'), 'model = = broken');
    prepareCodexHome(codexHome, { HOME: root, CODEX_HOME: theirs });
    expect(parse(readFileSync(join(codexHome, 'config.toml'), 'utf8'))).toEqual({});
  });
});
