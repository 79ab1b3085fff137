import { FIXTURES } from '../../tests/support/fixtures-directory.ts';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverMemoryFiles } from './memory-files.ts';

const MEMORY = path.join(FIXTURES, 'memory');
let home: string;

beforeAll(() => {
  home = mkdtempSync(path.join(tmpdir(), 'atlas-memory-'));
  const write = (relative: string, text: string): void => {
    mkdirSync(path.dirname(path.join(home, relative)), { recursive: true });
    writeFileSync(path.join(home, relative), text);
  };
  write('.claude/CLAUDE.md', 'user level rules');
  write('.claude/rules/style.md', 'prefer tabs');
  write('.claude/projects/-work-app/memory/MEMORY.md', '- index of topics');
  write('.claude/projects/-work-app/memory/testing.md', 'run vitest');
  write('.claude/projects/-work-app/abc.jsonl', '{}\n');
  write('.claude/plans/humble-plan.md', 'not a memory file');
  write('.codex/AGENTS.md', 'codex global');
  write('.codex/memories/memory_summary.md', 'v1\nprofile');
  write('.pi/agent/AGENTS.md', 'pi global');
  write('work/app/AGENTS.md', 'project agents');
  write('work/app/node_modules/pkg/CLAUDE.md', 'never read');
  symlinkSync('AGENTS.md', path.join(home, 'work/app/CLAUDE.md'));
  symlinkSync(path.join(home, 'work'), path.join(home, 'work/app/loop'));
  symlinkSync(path.join(home, 'missing.md'), path.join(home, 'work/CLAUDE.md'));
  utimesSync(path.join(home, '.codex/AGENTS.md'), 1_700_000_000, 1_700_000_000);
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('discoverMemoryFiles', () => {
  it('finds every memory fixture with its runner, kind, text and mtime', async () => {
    const files = await discoverMemoryFiles([], [MEMORY]);
    const byPath = new Map(files.map((file) => [path.relative(MEMORY, file.path), file]));
    expect([...byPath.keys()].sort()).toEqual([
      'claude-code/jazzyalex-agent-sessions/CLAUDE.md',
      'claude-code/marot-spotter/CLAUDE.md',
      'claude-code/marot-spotter/e2e/CLAUDE.md',
      'claude-code/neilberkman-ccrider/.claude/CLAUDE.md',
      'claude-code/ryoppippi-ccusage/.claude/CLAUDE.md',
      'codex/drlove2002-ai-config/memories/memory_summary.md',
      'codex/drlove2002-ai-config/memories/rollout_summaries/2026-07-16T07-55-43-Ol42-redis_removal_reputation_leaderboard_and_sqlite_lock.md',
      'codex/madshn-localpush/AGENTS.md',
      'codex/ryoppippi-ccusage/AGENTS.md',
      'codex/ryoppippi-ccusage/apps/ccusage/AGENTS.md',
      'pi/badlogic-pi-mono/AGENTS.md',
    ]);
    expect(byPath.get('claude-code/marot-spotter/CLAUDE.md')).toMatchObject({ runner: 'claude-code', kind: 'project' });
    expect(byPath.get('codex/drlove2002-ai-config/memories/memory_summary.md')).toMatchObject({
      runner: 'codex',
      kind: 'generated-memory',
    });
    expect(byPath.get('codex/drlove2002-ai-config/memories/memory_summary.md')!.text.startsWith('v1')).toBe(true);
    expect(byPath.get('pi/badlogic-pi-mono/AGENTS.md')!.readBy).toEqual(['codex', 'pi']);
    for (const file of files) {
      expect(file.text.length).toBeGreaterThan(0);
      expect(file.mtimeMs).toBeGreaterThan(0);
    }
  });

  it('classifies user, rules, auto-memory and generated memory under agent homes; follows symlinks once', async () => {
    const files = await discoverMemoryFiles(
      [path.join(home, '.claude'), path.join(home, '.codex'), path.join(home, '.pi', 'agent')],
      [path.join(home, 'work', 'app')],
      { home },
    );
    const summary = files.map((file) => `${path.relative(home, file.path)} ${file.runner} ${file.kind}`);
    expect(summary.sort()).toEqual([
      '.claude/CLAUDE.md claude-code user',
      '.claude/projects/-work-app/memory/MEMORY.md claude-code auto-memory',
      '.claude/projects/-work-app/memory/testing.md claude-code auto-memory',
      '.claude/rules/style.md claude-code rules',
      '.codex/AGENTS.md codex user',
      '.codex/memories/memory_summary.md codex generated-memory',
      '.pi/agent/AGENTS.md pi user',
      'work/app/AGENTS.md codex project',
      'work/app/CLAUDE.md claude-code project',
    ]);
    const link = files.find((file) => file.path.endsWith('work/app/CLAUDE.md'))!;
    expect(link.realPath.endsWith('work/app/AGENTS.md')).toBe(true);
    expect(link.text).toBe('project agents');
    expect(files.find((file) => file.path.endsWith('.codex/AGENTS.md'))!.mtimeMs).toBe(1_700_000_000_000);
  });
});
