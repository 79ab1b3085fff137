import { describe, expect, it } from 'vitest';
import { estimateTokensByLength } from '../tokens.ts';
import { planRecall, type RecallPlanInput } from './plan-recall.ts';
import type { RecallDossier } from './recall-inputs.ts';
import { turnKnownAs } from './turn-known-as.ts';
import { TEST_PROJECT as PROJECT, TEST_T0 as T0, testTurn as turn } from './test-turn.ts';

const DOSSIER: RecallDossier = {
  topicId: 'hives',
  topicName: 'Hives',
  writtenAt: T0,
  sentences: [
    { id: 's0', section: 'what', text: 'The varroa count lives in SQLite.', citations: ['claude-code:a#1'] },
    {
      id: 's1',
      section: 'decisions',
      text: 'Counts are kept per hive.',
      citations: ['claude-code:a#1', 'claude-code:cut#1'],
    },
  ],
};

function input(overrides: Partial<RecallPlanInput> = {}): RecallPlanInput {
  return {
    question: 'How is the varroa count stored?',
    terms: ['varroa', 'count'],
    canvasId: 'active',
    project: PROJECT,
    global: false,
    struck: [],
    archived: () => false,
    citedFolder: () => PROJECT,
    candidates: [turn('claude-code:a#1')],
    dossiers: [DOSSIER],
    ceiling: 'small',
    contextWindow: 200_000,
    estimateTokens: estimateTokensByLength,
    ...overrides,
  };
}

describe('trust state in recall (#29.3)', () => {
  it('knows a turn as observed, interrupted or index-cut turns as reconstructed', () => {
    expect(turnKnownAs(null, false)).toEqual({ knownAs: 'observed', completeness: null });
    expect(turnKnownAs('interrupted', false)).toEqual({ knownAs: 'reconstructed', completeness: 'interrupted' });
    expect(turnKnownAs('interrupted-tool-use', true)).toEqual({
      knownAs: 'reconstructed',
      completeness: 'interrupted',
    });
    expect(turnKnownAs(null, true)).toEqual({ knownAs: 'reconstructed', completeness: 'truncated' });
  });

  it('leaves a dossier (inferred) out by default, listed as inferred; the turns stay', () => {
    const plan = planRecall(input());
    expect(plan.block).not.toContain('lives in SQLite.');
    expect(plan.block).toContain('Store the varroa count per hive in SQLite (claude-code:a#1).');
    expect(plan.items.map((item) => item.id)).toEqual(['claude-code:a#1']);
    expect(plan.omitted).toContainEqual(
      expect.objectContaining({ id: 'dossier:hives', reason: 'inferred', knownAs: 'inferred' }),
    );
  });

  it('brings the dossier behind the switch, marked inferred, naming a reconstructed citation', () => {
    const plan = planRecall(
      input({
        includeInferred: true,
        citedKnownAs: (key) => (key === 'claude-code:cut#1' ? 'reconstructed' : 'observed'),
      }),
    );
    expect(plan.block).toContain('[D1 · Dossier “Hives” · written 2026-11-01 · inferred]');
    expect(plan.block).toContain('- The varroa count lives in SQLite. (cites claude-code:a#1)');
    expect(plan.block).toContain(
      '- Counts are kept per hive. (cites claude-code:a#1, claude-code:cut#1; reconstructed: claude-code:cut#1)',
    );
    expect(plan.items.find((item) => item.id === 'dossier:hives')?.knownAs).toBe('inferred');
    expect(planRecall(input()).blockHash).not.toBe(plan.blockHash);
  });

  it('takes a reconstructed turn and marks it in the block and its item; an observed one stays unmarked', () => {
    const cut = turn('claude-code:cut#1', { sessionId: 'cut', knownAs: 'reconstructed', completeness: 'interrupted' });
    const plan = planRecall(input({ candidates: [turn('claude-code:a#1'), cut], dossiers: [] }));
    expect(plan.block).toMatch(
      /\[R\d · claude-code · “Session claude-code:cut#1” · session cut · turn 1 · 2026-11-01 · reconstructed \(interrupted\)\]/,
    );
    expect(plan.block).toMatch(
      /\[R\d · claude-code · “Session claude-code:a#1” · session session-claude-code:a#1 · turn 1 · 2026-11-01\]/,
    );
    const item = plan.items.find((each) => each.id === 'claude-code:cut#1');
    expect(item).toMatchObject({ knownAs: 'reconstructed', completeness: 'interrupted' });
    expect(plan.items.find((each) => each.id === 'claude-code:a#1')).not.toHaveProperty('knownAs');
  });
});
