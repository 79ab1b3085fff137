import { describe, expect, it } from 'vitest';
import { TestCanvas } from '../test-canvas.ts';
import { sha256Hex } from '../hashing.ts';
import { exchangeFromCanvas, type RecordedCommit } from './exchange-from-canvas.ts';

function setUp() {
  const canvas = new TestCanvas();
  const mine = canvas.addNote('I prefer metric units.');
  const weft = canvas.apply({
    type: 'add-node',
    node: { kind: 'note', text: 'I am Bob, the maintainer.', author: 'app' },
  }).created[0]!;
  const material = canvas.addMaterial('CV', 'My name is Carla Diaz.');
  const question = canvas.addQuestion('Convert 5 miles.');
  for (const from of [mine, weft, material]) canvas.wire(from, question);
  const versionId = canvas.answer(question, 'That is 8 km. You prefer Emacs.');
  const node = canvas.graph.nodes.get(question);
  const commitHash = node?.kind === 'question' ? node.versions[0]!.requestHash! : '';
  const claim = { canvasId: canvas.graph.canvas.id, nodeId: question, versionId, commitHash };
  return { canvas, mine, weft, claim };
}

const read = (canvas: TestCanvas, claim: ReturnType<typeof setUp>['claim'], memoryBlock: string | null = null) =>
  exchangeFromCanvas(canvas.graph, claim, { at: 5, memoryBlock, recorded: everyCommit(canvas) });

/** The ledger as the server holds it after every version of the canvas was asked and answered for real. */
const everyCommit = (canvas: TestCanvas) =>
  [...canvas.graph.nodes.values()].flatMap((node) =>
    node.kind === 'question' ? node.versions.map((version) => canvas.recordedCommit(node.id, version.id)) : [],
  );

describe('exchangeFromCanvas (C14: the stored canvas says which words are the person’s)', () => {
  it('takes the question as asked and the person’s notes as their words; the rest is context', () => {
    const { canvas, mine, claim } = setUp();
    const found = read(canvas, claim, '[Memory]\n- I like tea.');
    if (!found.ok) throw new Error(found.error.message);
    expect(found.value.person).toEqual([
      { kind: 'question', text: 'Convert 5 miles.', nodeId: claim.nodeId },
      { kind: 'note', text: 'I prefer metric units.', nodeId: mine },
    ]);
    // Materials come first in compile order; the version did not send the [Memory] block, so it is not there.
    expect(found.value.other).toEqual([
      { kind: 'answer', text: 'That is 8 km. You prefer Emacs.' },
      { kind: 'material', text: 'My name is Carla Diaz.' },
      { kind: 'app-note', text: 'I am Bob, the maintainer.' },
    ]);
    expect(found.value.origin).toEqual({ ...claim, at: 5 });
  });

  it('uses the question the version asked, not the node’s question edited since', () => {
    const { canvas, claim } = setUp();
    canvas.edit(claim.nodeId, { question: 'I am the Queen of England.' });
    const found = read(canvas, claim);
    expect(found.ok && found.value.person[0]!.text).toBe('Convert 5 miles.');
  });

  it('drops a note edited since the ask: its words now are not what was sent', () => {
    const { canvas, mine, claim } = setUp();
    canvas.edit(mine, { text: 'I prefer imperial units.' });
    const found = read(canvas, claim);
    expect(found.ok && found.value.person.map((text) => text.kind)).toEqual(['question']);
    expect(found.ok && found.value.other.map((text) => text.text)).not.toContain('I prefer imperial units.');
  });

  it('refuses a claim the canvas does not record, with a code', () => {
    const { canvas, claim } = setUp();
    const code = (override: Partial<typeof claim>) => {
      const found = read(canvas, { ...claim, ...override });
      return found.ok ? 'ok' : found.error.code;
    };
    expect(code({})).toBe('ok');
    expect(code({ commitHash: 'f'.repeat(64) })).toBe('exchange-mismatch');
    expect(code({ versionId: 'nope' })).toBe('exchange-unknown');
    expect(code({ nodeId: 'nope' })).toBe('exchange-unknown');
    expect(code({ canvasId: 'another-canvas' })).toBe('exchange-unknown');
  });

  it('refuses a version that is not a complete ordinary ask', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('I prefer tabs.');
    const versionId = canvas.answer(question, 'Noted.', { origin: 'imported' });
    const node = canvas.graph.nodes.get(question);
    const commitHash = node?.kind === 'question' ? node.versions[0]!.requestHash! : '';
    const found = exchangeFromCanvas(
      canvas.graph,
      { canvasId: canvas.graph.canvas.id, nodeId: question, versionId, commitHash },
      { at: 1, memoryBlock: null, recorded: [canvas.recordedCommit(question, versionId)] },
    );
    expect(found.ok ? 'ok' : found.error.code).toBe('not-an-ask');
  });

  it('refuses a version no recorded commit asked and answered for that node (issue 27.3)', () => {
    const { canvas, claim } = setUp();
    const genuine = canvas.recordedCommit(claim.nodeId, claim.versionId);
    const code = (recorded: RecordedCommit[]) => {
      const found = exchangeFromCanvas(canvas.graph, claim, { at: 1, memoryBlock: null, recorded });
      return found.ok ? 'ok' : found.error.code;
    };
    expect(code([genuine])).toBe('ok');
    expect(code([])).toBe('exchange-unrecorded');
    // The answer's words put in as the question, an answer not streamed to the end, another node or canvas.
    expect(code([{ ...genuine, questionHash: sha256Hex('That is 8 km. You prefer Emacs.') }])).toBe(
      'exchange-unrecorded',
    );
    expect(code([{ ...genuine, answerHash: null }])).toBe('exchange-unrecorded');
    expect(code([{ ...genuine, nodeId: 'another-node' }])).toBe('exchange-unrecorded');
    expect(code([{ ...genuine, canvasId: 'another-canvas' }])).toBe('exchange-unrecorded');
  });

  it('takes who wrote the question from the recorded commit when the server could tell', () => {
    const { canvas, mine, claim } = setUp();
    const read = (author: RecordedCommit['questionAuthor']) => {
      const recorded = [canvas.recordedCommit(claim.nodeId, claim.versionId, author)];
      const found = exchangeFromCanvas(canvas.graph, claim, { at: 1, memoryBlock: null, recorded });
      if (!found.ok) throw new Error(found.error.message);
      return found.value;
    };
    // The version says the person wrote it; the server recorded a model's question at the commit.
    expect(read('model').person).toEqual([{ kind: 'note', text: 'I prefer metric units.', nodeId: mine }]);
    expect(read('model').other).toContainEqual({ kind: 'app-question', text: 'Convert 5 miles.' });
    expect(read(null).person.map((text) => text.kind)).toEqual(['question', 'note']);
  });
});
