import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_MULTI_TURN, copyFixtures, type FixtureWorkspace } from './fixture-roots.ts';
import { INDEX_SCHEMA_VERSION } from './index-schema.ts';
import { WhyIndex } from './why-index.ts';

const SESSION = '5b0c2f4e-8d1a-4c3b-9e7f-2a6d8c4e1b90';
const workspaces: FixtureWorkspace[] = [];
const indexes: WhyIndex[] = [];

afterEach(() => {
  for (const index of indexes.splice(0)) index.close();
  for (const space of workspaces.splice(0)) rmSync(space.directory, { recursive: true, force: true });
});

/**
 * The real two-turn Claude Code session, its prompts and one answer rewritten the way people write to the
 * agents in Chinese and Japanese: CJK runs with no spaces, Latin names inside them.
 */
function writeCjkSession(space: FixtureWorkspace): void {
  const source = readFileSync(join(space.roots[0]!, CLAUDE_MULTI_TURN), 'utf8');
  const text = source
    .replaceAll('4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b', SESSION)
    .replaceAll(
      'Write a TODO.md file with two unchecked items: write tests, update docs. [multi-turn:1]',
      '请你优化仓库里的README.md，把安装步骤写清楚，再用TypeScript的类型守卫重构解析函数',
    )
    .replaceAll(
      'Mark the first item as done and show me the file. [multi-turn:2]',
      'このリポジトリのテストを修正してください。失敗しているのはparse.test.tsです',
    )
    .replaceAll('Created `TODO.md` with two unchecked items.', '已经更新了安装说明，并添加了两个待办事项。');
  writeFileSync(join(space.roots[0]!, 'claude', `${SESSION}.jsonl`), text);
}

async function indexed(): Promise<WhyIndex> {
  const space = copyFixtures('weft-cjk-');
  workspaces.push(space);
  writeCjkSession(space);
  writeFileSync(
    join(space.memoryRoot, 'CLAUDE.md'),
    '# 项目约定\n所有提交信息使用中文书写，每次提交前运行npm test。\n',
  );
  const index = WhyIndex.open({ env: space.env });
  indexes.push(index);
  const summary = await index.index();
  expect(summary.failed).toEqual([]);
  return index;
}

const turnsOf = (hits: { sessionId: string | null; turn: number | null }[]) =>
  hits.filter((hit) => hit.sessionId === SESSION).map((hit) => hit.turn);

describe('find inside runs of CJK characters', () => {
  it('finds 2-, 3- and 4-character phrases (and longer, mixed with Latin) anywhere inside a run', async () => {
    const index = await indexed();
    const question = (phrase: string) => turnsOf(index.find(phrase, { in: 'question' }));
    // Four characters inside 请你优化仓库里的…: one token to the word index, so it used to find nothing.
    expect(question('优化仓库')).toEqual([1]);
    expect(question('类型守卫')).toEqual([1]);
    // Three characters, and two (no trigram to look up: the fallback scan).
    expect(question('安装步')).toEqual([1]);
    expect(question('仓库')).toEqual([1]);
    expect(question('重构')).toEqual([1]);
    // Japanese: kanji and kana mixed, inside a sentence.
    expect(question('テストを修正')).toEqual([2]);
    expect(question('修正')).toEqual([2]);
    // Mixed CJK and Latin, across the boundary, in any letter case.
    expect(question('用TypeScript的类型')).toEqual([1]);
    expect(question('用typescript的')).toEqual([1]);
    expect(question('のはparse.test')).toEqual([2]);
    // The answer field, and the snippet marks the match.
    const answer = index.find('待办事项', { in: 'answer' }).filter((hit) => hit.sessionId === SESSION);
    expect(answer.map((hit) => hit.turn)).toEqual([1]);
    expect(answer[0]!.snippet).toContain('[待办事项]');
    // A substring that is not there, and characters not adjacent, find nothing.
    expect(question('优化代码')).toEqual([]);
    expect(question('优仓')).toEqual([]);
    expect(question('修复')).toEqual([]);
  });

  it('finds CJK phrases in memory files, filters by folder, and keeps Latin phrases on the word index', async () => {
    const index = await indexed();
    const material = index.find('提交信息', { in: 'material' });
    expect(material.map((hit) => hit.turnKey)).toEqual([expect.stringMatching(/CLAUDE\.md$/)]);
    expect(index.find('信息', { in: 'material' })).toHaveLength(1);
    // Every field at once, and --cwd: the session's folder keeps it, another folder drops it.
    expect(turnsOf(index.find('优化仓库'))).toEqual([1]);
    expect(turnsOf(index.find('优化仓库', { cwd: '/tmp/realsessions/out/claude/multi-turn' }))).toEqual([1]);
    expect(turnsOf(index.find('优化仓库', { cwd: '/tmp/elsewhere' }))).toEqual([]);
    // A Latin phrase is still a word-index phrase: whole words, so a fragment of a word is no match.
    expect(index.find('unchecked items', { in: 'question' }).length).toBeGreaterThan(0);
    expect(index.find('nchecked item', { in: 'question' })).toEqual([]);
  });

  it('keeps the trigram rows in step when a session file is rewritten or removed', async () => {
    const index = await indexed();
    const space = workspaces[0]!;
    const path = join(space.roots[0]!, 'claude', `${SESSION}.jsonl`);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll('优化仓库', '整理目录'));
    await index.refresh();
    expect(turnsOf(index.find('优化仓库', { in: 'question' }))).toEqual([]);
    expect(turnsOf(index.find('整理目录', { in: 'question' }))).toEqual([1]);
    // Gone, and not kept (weft purge --archive): its rows, trigram rows with them, go.
    rmSync(path);
    index.archive.drop();
    await index.refresh();
    expect(index.database.prepare('SELECT count(*) FROM cjk_texts WHERE turn_id IS NOT NULL').pluck().get()).toBe(0);
    expect(turnsOf(index.find('整理目录', { in: 'question' }))).toEqual([]);
  });

  it('an index of the schema before the trigram table (version 2) is rebuilt, and then finds CJK phrases', async () => {
    const first = await indexed();
    const space = workspaces[0]!;
    first.database.exec(
      "DROP TABLE cjk_trigrams; DROP TABLE cjk_texts; UPDATE meta SET value = '2' WHERE key = 'schema_version'",
    );
    first.close();
    const second = WhyIndex.open({ env: space.env });
    indexes.push(second);
    expect(second.createdNow).toBe(true);
    expect(second.status().schemaVersion).toBe(INDEX_SCHEMA_VERSION);
    await second.refresh();
    expect(turnsOf(second.find('优化仓库', { in: 'question' }))).toEqual([1]);
  });
});
