/**
 * The real session recordings the benchmark corpus is scaled from (`tests/fixtures/real-sessions/<runner>/multi-turn`):
 * a prefix (header and first turn, written once per file) and a turn block (the resumed second turn),
 * repeated with fresh ids so a generated file is a long, well-formed session of that runner.
 */
export interface CorpusTemplate {
  runner: 'claude-code' | 'codex' | 'pi';
  /** Path under `real-sessions/`. */
  file: string;
  /** 1-based line where the repeated turn block starts; it runs to the end of the file. */
  blockStart: number;
  /** Share of the corpus bytes. */
  weight: number;
}

export const CORPUS_TEMPLATES: readonly CorpusTemplate[] = [
  {
    runner: 'claude-code',
    file: 'claude/multi-turn/projects/-tmp-realsessions-out-claude-multi-turn-repo/4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b.jsonl',
    blockStart: 34,
    weight: 0.45,
  },
  {
    runner: 'codex',
    file: 'codex/multi-turn/sessions/2026/11/29/rollout-2026-11-29T12-05-43-01a22732-657a-7592-b814-5874c3ab6165.jsonl',
    blockStart: 22,
    weight: 0.35,
  },
  {
    runner: 'pi',
    file: 'pi/multi-turn/sessions/--tmp-realsessions-out-pi-multi-turn-repo--/2026-11-29T12-05-48-923Z_01a22732-78f8-7285-85e1-77d70ff3cfd9.jsonl',
    blockStart: 8,
    weight: 0.2,
  },
];

/** The session id each template file carries (file name for Claude Code, header for Codex and pi). */
export const TEMPLATE_SESSION_IDS: Record<string, string> = {
  'claude-code': '4af3d3b8-24e2-46c9-b2fc-8f2351e2f12b',
  codex: '01a22732-657a-7592-b814-5874c3ab6165',
  pi: '01a22732-78f8-7285-85e1-77d70ff3cfd9',
};
