import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MemoryProfile } from '../../../protocol/memory-profile.ts';
import { MEMORY_DOCUMENTS, MemoryProfileSchema } from '../../../protocol/memory-profile.ts';
import { canonicalJson } from '../hashing.ts';
import { admitFact, MAX_ADDITIONS_PER_VISIT } from './admit-fact.ts';
import type { Exchange } from './exchange.ts';
import { mergeFact } from './merge-fact.ts';
import { normaliseText } from './normalise-text.ts';
import { deleteLine, undoWrite } from './person-edits.ts';
import { currentLines, emptyProfile } from './profile.ts';
import { matchesRefusal } from './refusal-match.ts';
import { ruleDecide } from './rule-decide.ts';
import { importProfile, profileFromMarkdown, profileToMarkdown } from './profile-markdown.ts';
import type { FactCategory } from './first-person.ts';

const PERSON = [
  'I prefer tabs over spaces.',
  'I am a nurse in Leeds.',
  'I like green tea in the morning.',
  'I use Neovim for everything.',
  'I hate long answers.',
  'My name is Ana Lopez.',
];
const OTHER = ['You prefer dark mode always.', 'You are a chef in Paris.', 'I like black coffee with sugar.'];
const FACTS = [
  'Prefers tabs over spaces',
  'Prefers dark mode',
  'Is a chef in Paris',
  'Likes green tea',
  'Uses Neovim',
  'The user is Christophe',
];

const action = fc.oneof(
  fc.record({
    type: fc.constant('judge' as const),
    question: fc.subarray(PERSON, { minLength: 1 }),
    answer: fc.constantFrom(...OTHER),
    fact: fc.constantFrom(...FACTS),
    spanFrom: fc.constantFrom('person' as const, 'answer' as const),
    category: fc.constantFrom<FactCategory>('preference', 'identity'),
    stated: fc.boolean(),
    operations: fc.oneof(
      fc.constant(null),
      fc.constant('prose'),
      fc.record({ replaceFirst: fc.nat(4), count: fc.constantFrom(1, 1, 1, 2, 3), rewordNeighbour: fc.boolean() }),
    ),
  }),
  fc.record({ type: fc.constant('rule' as const), question: fc.subarray(PERSON, { minLength: 1 }) }),
  fc.record({ type: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ type: fc.constant('undo' as const) }),
  fc.record({ type: fc.constant('visit' as const) }),
  fc.record({ type: fc.constant('export' as const) }),
  fc.record({ type: fc.constant('import' as const) }),
);

describe('memory invariants over any sequence of admissions, merges, undos, deletions, exports and imports', () => {
  it('holds', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 40 }), (actions) => {
        let profile: MemoryProfile = emptyProfile();
        let now = 1_000;
        let ids = 0;
        let additions = 0;
        const context = () => ({ now, newId: () => `id-${++ids}` });
        const exchanges = new Map<string, Exchange>();
        const admittedTexts = new Map<string, Set<string>>();
        let lastWrite: { before: MemoryProfile; after: MemoryProfile; lineId: string | null } | null = null;
        let exported: string | null = null;

        for (const [step, next] of actions.entries()) {
          now += 1_000;
          if (next.type === 'visit') additions = 0;
          if (next.type === 'export') {
            exported = profileToMarkdown(profile);
            // The Markdown carries the whole record.
            expect(profileFromMarkdown(exported)).toEqual({ ok: true, value: profile });
          }
          if (next.type === 'import' && exported !== null) {
            const read = profileFromMarkdown(exported);
            if (!read.ok) throw new Error(read.error.message);
            const imported = importProfile(profile, read.value, now);
            if (!imported.ok) throw new Error(imported.error);
            profile = imported.value.profile;
            lastWrite = null;
            // An import is no way back for what the person took back, whoever wrote the line.
            for (const document of MEMORY_DOCUMENTS)
              for (const line of currentLines(profile, document))
                expect(matchesRefusal(profile.refusals, line.text)).toBeNull();
          }
          if (next.type === 'delete') {
            const lines = MEMORY_DOCUMENTS.flatMap((document) => currentLines(profile, document));
            if (lines.length > 0) {
              const deleted = deleteLine(profile, lines[next.pick % lines.length]!.id, context());
              if (deleted.ok) profile = deleted.value.profile;
            }
            lastWrite = null;
          }
          if (next.type === 'undo' && lastWrite) {
            const undone = undoWrite(lastWrite.before, lastWrite.after, profile, lastWrite.lineId, context());
            if (undone.ok) {
              // Undo restores byte-identical documents.
              expect(canonicalJson(undone.value.profile.documents)).toBe(canonicalJson(lastWrite.before.documents));
              profile = undone.value.profile;
            }
            lastWrite = null;
          }
          if (next.type === 'judge' || next.type === 'rule') {
            const nodeId = `node-${step}`;
            const exchange: Exchange = {
              origin: { canvasId: 'canvas-1', nodeId, versionId: null, commitHash: null, at: now },
              person: [{ kind: 'question', text: next.question.join(' '), nodeId }],
              other:
                next.type === 'judge'
                  ? [
                      { kind: 'answer', text: next.answer },
                      { kind: 'memory', text: OTHER[0]! },
                    ]
                  : [],
            };
            exchanges.set(nodeId, exchange);
            const candidates =
              next.type === 'rule'
                ? ruleDecide(exchange)
                : [
                    {
                      text: next.fact,
                      span: (next.spanFrom === 'person' ? next.question[0]! : next.answer).replace(/\.$/, ''),
                      category: next.category,
                      stated: next.stated,
                      updates: null,
                      path: 'judge' as const,
                    },
                  ];
            for (const candidate of candidates) {
              const verdict = admitFact(candidate, exchange, profile, additions);
              if (!verdict.admitted || verdict.fact.document === null) continue;
              additions += 1;
              admittedTexts.set(
                nodeId,
                new Set([...(admittedTexts.get(nodeId) ?? []), normaliseText(verdict.fact.text)]),
              );
              expect(additions).toBeLessThanOrEqual(MAX_ADDITIONS_PER_VISIT);
              const current = currentLines(profile, verdict.fact.document);
              const operations =
                next.type === 'rule' || next.operations === null
                  ? null
                  : next.operations === 'prose'
                    ? 'Here is the rewritten document.'
                    : {
                        operations: [
                          current.length > 0
                            ? {
                                op: 'replace',
                                lineIds: current.slice(0, next.operations.count).map((line) => line.id),
                                text: verdict.fact.text,
                              }
                            : { op: 'add', text: verdict.fact.text },
                          ...(next.operations.rewordNeighbour && current.length > next.operations.count
                            ? [
                                {
                                  op: 'replace',
                                  lineIds: [current.at(-1)!.id],
                                  text: `${current.at(-1)!.text} (reworded)`,
                                },
                              ]
                            : []),
                        ],
                      };
              const before = profile;
              const merged = mergeFact(profile, verdict.fact, operations, context());
              if (!merged.ok) continue;
              profile = merged.value.profile;
              lastWrite = { before, after: profile, lineId: merged.value.lineId };
            }
          }

          expect(MemoryProfileSchema.safeParse(profile).success).toBe(true);
          for (const document of MEMORY_DOCUMENTS)
            for (const line of profile.documents[document]) {
              // A `stated`/`inferred` line rests on a span of the person's own words in its exchange.
              if (line.evidence === 'stated' || line.evidence === 'inferred') {
                const exchange = exchanges.get(line.origin.nodeId!)!;
                const own = exchange.person.map((text) => normaliseText(text.text)).join('\n');
                expect(own).toContain(normaliseText(line.span!));
                // …and says exactly a fact admitted from it: a reworded neighbour is never `stated`.
                expect(admittedTexts.get(line.origin.nodeId!)?.has(normaliseText(line.text))).toBe(true);
              } else expect(line.span).toBeNull();
              // A refused fact never reappears: no model-written line made after a refusal matches it.
              if (line.evidence !== 'manual')
                for (const refusal of profile.refusals)
                  if (line.createdAt > refusal.at) expect(matchesRefusal([refusal], line.text)).toBeNull();
            }
          // No duplicates among current lines.
          const current = MEMORY_DOCUMENTS.flatMap((document) => currentLines(profile, document)).map((line) =>
            normaliseText(line.text),
          );
          expect(new Set(current).size).toBe(current.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
