import { describe, expect, it } from 'vitest';
import type { MemoryProfile } from '../../../protocol/memory-profile.ts';
import { admitFact } from './admit-fact.ts';
import type { OtherText } from './exchange.ts';
import { mergeFact } from './merge-fact.ts';
import { deleteLine } from './person-edits.ts';
import { ruleDecide } from './rule-decide.ts';
import { emptyProfile } from './profile.ts';
import { testContext, testExchange } from './memory-test-kit.ts';

/**
 * A golden set for the rule path (no judge): each exchange, what the rule path admits (category: text) and what
 * it refuses (code). A change to a pattern or a rule that moves any row fails here.
 */
const GOLDEN: {
  question: string;
  other?: Partial<Record<OtherText['kind'], string>>;
  note?: string;
  admitted: string[];
  refused?: string[];
}[] = [
  { question: 'I prefer tabs over spaces. How do I set that?', admitted: ['preference: I prefer tabs over spaces.'] },
  {
    question: 'Please always answer in British English.',
    admitted: ['preference: Please always answer in British English.'],
  },
  { question: "I'd rather see code than prose.", admitted: ["preference: I'd rather see code than prose."] },
  { question: 'I hate long answers, keep it short.', admitted: ['preference: I hate long answers, keep it short.'] },
  { question: 'My favourite language is OCaml.', admitted: ['preference: My favourite language is OCaml.'] },
  { question: 'I use Neovim for everything.', admitted: ['preference: I use Neovim for everything.'] },
  { question: 'My name is Ana Lopez.', admitted: ['identity: My name is Ana Lopez.'] },
  { question: 'I am a nurse in Leeds. What shifts are common?', admitted: ['identity: I am a nurse in Leeds.'] },
  { question: "I'm a data scientist at a bank.", admitted: ["identity: I'm a data scientist at a bank."] },
  { question: 'I live in Lyon with my partner.', admitted: ['identity: I live in Lyon with my partner.'] },
  { question: 'I work at Mozilla on Firefox.', admitted: ['identity: I work at Mozilla on Firefox.'] },
  { question: 'Call me Sam, please.', admitted: ['identity: Call me Sam, please.'] },
  {
    question: "I'm building a compiler for a toy language.",
    admitted: ["project: I'm building a compiler for a toy language."],
  },
  {
    question: 'Our project uses PostgreSQL 16 everywhere.',
    admitted: ['project: Our project uses PostgreSQL 16 everywhere.'],
  },
  // Identity implied or about someone else: nothing.
  { question: 'Can you tell me about Christophe and his restaurant?', admitted: [] },
  { question: 'I am asking about Christophe, the chef.', admitted: [] },
  { question: "I'm not sure this is right.", admitted: [] },
  { question: 'I am so tired of this bug.', admitted: [] },
  { question: 'Christophe prefers spaces over tabs.', admitted: [] },
  // Requests, reactions to the conversation and states of the moment are not lasting facts.
  { question: 'I want a regex that matches emails.', admitted: [], refused: ['not-durable'] },
  { question: "I'd like you to rewrite this function.", admitted: [] },
  { question: 'I hate this error message.', admitted: [], refused: ['not-durable'] },
  { question: 'I like this answer a lot.', admitted: [], refused: ['not-durable'] },
  { question: "I'm in a hurry.", admitted: [], refused: ['not-durable'] },
  { question: 'I am Tired of this bug.', admitted: [], refused: ['not-durable'] },
  { question: 'I am annoyed by the build.', admitted: [], refused: ['not-durable'] },
  // True preferences stay admitted.
  { question: 'I prefer British spelling.', admitted: ['preference: I prefer British spelling.'] },
  { question: 'I always use pnpm.', admitted: ['preference: I always use pnpm.'] },
  { question: 'I am married with two kids.', admitted: ['identity: I am married with two kids.'] },
  // Questions state nothing.
  { question: 'Do I prefer tabs or spaces?', admitted: [] },
  { question: 'Am I a good fit for data science?', admitted: [] },
  // Too short to be evidence.
  { question: "I'm Portuguese.", admitted: [] },
  // The model's answer and other texts are never read, whatever they say.
  {
    question: 'What editor should I use?',
    other: { answer: 'I prefer Emacs myself. You are a Vim user.' },
    admitted: [],
  },
  { question: 'Summarise my week.', other: { recall: 'I am a surgeon in Oslo.' }, admitted: [] },
  { question: 'Continue the session.', other: { mirror: 'I like Rust more than Go.' }, admitted: [] },
  { question: 'Read this paper.', other: { material: 'I am the author of this paper.' }, admitted: [] },
  { question: 'Hello again.', other: { memory: '[Memory]\nPreferences:\n- I prefer tabs over spaces.' }, admitted: [] },
  // A note the person wrote counts.
  { question: 'What next?', note: 'I prefer papers with code.', admitted: ['preference: I prefer papers with code.'] },
  // Credentials are refused even in the person's words.
  { question: 'My password is hunter2 and I use it everywhere.', admitted: [], refused: ['credential'] },
  { question: 'I use the key sk-proj-abcdefghijklmnopqrstu daily.', admitted: [], refused: ['credential'] },
  { question: 'I prefer paying with 4111 1111 1111 1111 online.', admitted: [], refused: ['credential'] },
  { question: 'I use the password hunter2 for everything.', admitted: [], refused: ['credential'] },
  { question: 'I like my Google key AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q.', admitted: [], refused: ['credential'] },
  { question: 'I use Zq8vN2pLw4RtY6uX9bC3mK7sD1fG5hJ0 daily.', admitted: [], refused: ['credential'] },
  // Several statements: at most three additions per visit.
  {
    question: 'I prefer dark mode. I use Vim daily. I like green tea. I hate meetings before ten.',
    admitted: ['preference: I prefer dark mode.', 'preference: I use Vim daily.', 'preference: I like green tea.'],
    refused: ['visit-limit'],
  },
  // The same statement twice in one exchange: the second is a duplicate.
  {
    question: 'I prefer short answers. Really. I prefer short answers.',
    admitted: ['preference: I prefer short answers.'],
    refused: ['duplicate'],
  },
];

function run(row: (typeof GOLDEN)[number], start: MemoryProfile = emptyProfile()) {
  const exchange = testExchange(row.question, row.other ?? {}, row.note);
  const context = testContext(10_000, 'golden');
  let profile = start;
  let additions = 0;
  const admitted: string[] = [];
  const refused: string[] = [];
  for (const candidate of ruleDecide(exchange)) {
    const verdict = admitFact(candidate, exchange, profile, additions);
    if (!verdict.admitted) {
      refused.push(verdict.reason);
      continue;
    }
    additions += 1;
    admitted.push(`${verdict.fact.category}: ${verdict.fact.text}`);
    if (verdict.fact.document === null) continue;
    const merged = mergeFact(profile, verdict.fact, null, context);
    if (!merged.ok) throw new Error(merged.error);
    profile = merged.value.profile;
  }
  return { admitted, refused, profile };
}

describe('rule path golden set', () => {
  it('has at least thirty exchanges', () => expect(GOLDEN.length).toBeGreaterThanOrEqual(30));

  it.each(GOLDEN.map((row) => [row.question, row] as const))('%s', (_question, row) => {
    const { admitted, refused } = run(row);
    expect(admitted).toEqual(row.admitted);
    expect(refused).toEqual(row.refused ?? []);
  });

  it('a deleted line re-asserted is refused with refused-by-person', () => {
    const row = GOLDEN[0]!;
    const first = run(row);
    const line = first.profile.documents.preferences[0]!;
    const deleted = deleteLine(first.profile, line.id, testContext(20_000, 'later'));
    if (!deleted.ok) throw new Error(deleted.error);
    expect(run(row, deleted.value.profile)).toMatchObject({ admitted: [], refused: ['refused-by-person'] });
  });
});
