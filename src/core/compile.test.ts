import { describe, expect, it } from 'vitest';
import { compile } from './compile.ts';
import { STALE_MARK } from './compiled-context.ts';
import { GraphError } from './graph-error.ts';
import { hashCanonical } from './hashing.ts';
import { TestCanvas } from './test-canvas.ts';

const IMAGE_A = 'a'.repeat(64);
const IMAGE_B = 'b'.repeat(64);

function texts(canvas: TestCanvas, nodeId: string): string[] {
  return canvas
    .compiled(nodeId)
    .messages.map((message) =>
      message.content.map((part) => (part.type === 'text' ? part.text : `<image ${part.hash.slice(0, 4)}>`)).join('|'),
    );
}

function golden(canvas: TestCanvas, nodeId: string): string {
  const compiled = canvas.compiled(nodeId);
  return `${JSON.stringify({ messages: compiled.messages, sources: compiled.sources, tokens: compiled.tokens }, null, 2)}\n`;
}

describe('compile order (C5)', () => {
  it('puts materials first, then references, then the chain, then the question', () => {
    const canvas = new TestCanvas();
    const question = canvas.addQuestion('Q1');
    canvas.answer(question, 'A1');
    const reference = canvas.addQuestion('R');
    canvas.answer(reference, 'RA');
    const material = canvas.addMaterial('M', 'material text');
    const target = canvas.addQuestion('T');
    canvas.wire(question, target);
    canvas.wire(reference, target, 'quote');
    canvas.wire(material, target);
    const layers = canvas.compiled(target).sources.map((source) => source.layer);
    expect(layers).toEqual(['materials', 'references', 'chain', 'chain', 'question']);
    expect(texts(canvas, target).at(-1)).toBe('T');
  });

  it('orders the chain topologically, ties by creation time then id', () => {
    const canvas = new TestCanvas();
    const late = canvas.addQuestion('late root', { id: 'b-late' });
    const early = canvas.addQuestion('early root', { id: 'z-early' });
    const child = canvas.addQuestion('child of late');
    const target = canvas.addQuestion('T');
    canvas.wire(late, child);
    canvas.wire(child, target);
    canvas.wire(early, target);
    // late root was created first, so it comes before early root despite its id; the child waits for its parent.
    expect(texts(canvas, target)).toEqual(['late root', 'early root', 'child of late', 'T']);
  });

  it('breaks a creation-time tie by UTF-16 code units, not by locale', () => {
    const canvas = new TestCanvas({ step: 0 });
    // Locale order would give a, B, z, é; code-unit order is B (0x42), a (0x61), z (0x7a), é (0xe9).
    for (const id of ['é', 'a', 'z', 'B']) canvas.addQuestion(`from ${id}`, { id });
    const target = canvas.addQuestion('T', { id: 't' });
    for (const id of ['é', 'a', 'z', 'B']) canvas.wire(id, target);
    expect(texts(canvas, target)).toEqual(['from B', 'from a', 'from z', 'from é', 'T']);
  });

  it('breaks a creation-time tie by id', () => {
    const canvas = new TestCanvas({ step: 0 });
    canvas.addQuestion('second', { id: 'q2' });
    canvas.addQuestion('first', { id: 'q1' });
    const target = canvas.addQuestion('T', { id: 't' });
    canvas.wire('q2', target);
    canvas.wire('q1', target);
    expect(texts(canvas, target)).toEqual(['first', 'second', 'T']);
  });

  it('orders materials and references by creation time then id', () => {
    const canvas = new TestCanvas();
    const firstMaterial = canvas.addMaterial('M1', 'one');
    const secondMaterial = canvas.addMaterial('M2', 'two');
    const firstReference = canvas.addQuestion('R1');
    const secondReference = canvas.addQuestion('R2');
    const target = canvas.addQuestion('T');
    canvas.wire(secondReference, target, 'quote');
    canvas.wire(secondMaterial, target);
    canvas.wire(firstReference, target, 'quote');
    canvas.wire(firstMaterial, target);
    const ids = canvas.compiled(target).sources.map((source) => source.nodeId);
    expect(ids).toEqual([firstMaterial, secondMaterial, firstReference, secondReference, target]);
  });

  it('brings references and materials wired into chain nodes, not only into the target', () => {
    const canvas = new TestCanvas();
    const material = canvas.addMaterial('M', 'deep material');
    const reference = canvas.addQuestion('R');
    const parent = canvas.addQuestion('P');
    const target = canvas.addQuestion('T');
    canvas.wire(material, parent);
    canvas.wire(reference, parent, 'quote');
    canvas.wire(parent, target);
    expect(canvas.compiled(target).sources.map((source) => source.layer)).toEqual([
      'materials',
      'references',
      'chain',
      'question',
    ]);
  });

  it('treats a material wired dashed as a material, and a reference already in the chain as chain only', () => {
    const canvas = new TestCanvas();
    const material = canvas.addMaterial('M', 'text');
    const parent = canvas.addQuestion('P');
    const target = canvas.addQuestion('T');
    canvas.wire(material, target, 'quote');
    canvas.wire(parent, target);
    const child = canvas.addQuestion('C');
    canvas.wire(target, child);
    canvas.wire(parent, child, 'quote');
    expect(canvas.compiled(target).sources.map((source) => source.layer)).toEqual(['materials', 'chain', 'question']);
    expect(canvas.compiled(child).sources.filter((source) => source.layer === 'references')).toEqual([]);
  });

  it('uses the full depth when one source is referenced both quoted and full', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    const source = canvas.addQuestion('S');
    canvas.wire(root, source);
    const parent = canvas.addQuestion('P');
    const target = canvas.addQuestion('T');
    canvas.wire(source, parent, 'full');
    canvas.wire(source, target, 'quote');
    canvas.wire(parent, target);
    const blocks = texts(canvas, target).filter((text) => text.startsWith('[Reference'));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toContain('[Reference (full chain)]');
  });

  it('renders a note in the chain as user text, and frames never enter', () => {
    const canvas = new TestCanvas();
    const note = canvas.addNote('keep it short');
    canvas.addFrame('group');
    const target = canvas.addQuestion('T');
    canvas.wire(note, target);
    expect(texts(canvas, target)).toEqual(['[Note]\nkeep it short', 'T']);
    expect(canvas.compiled(target).messages[0]!.role).toBe('user');
  });

  it('fences a reference with more backticks than its body holds', () => {
    const canvas = new TestCanvas();
    const source = canvas.addQuestion('S');
    canvas.answer(source, 'has ```` four');
    const target = canvas.addQuestion('T');
    canvas.wire(source, target, 'quote');
    const block = texts(canvas, target)[0]!;
    expect(block.split('\n')[1]).toBe('`````');
    expect(block.endsWith('\n`````')).toBe(true);
  });
});

describe('compile exclusions and attachments', () => {
  it('leaves out excluded parts: an answer, a whole node, an attachment', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('Q1', { attachments: [IMAGE_A] });
    canvas.answer(first, 'A1');
    const second = canvas.addQuestion('Q2');
    canvas.wire(first, second);
    canvas.answer(second, 'A2');
    const target = canvas.addQuestion('T');
    canvas.wire(second, target);
    expect(texts(canvas, target)).toEqual(['Q1|<image aaaa>', 'A1', 'Q2', 'A2', 'T']);
    canvas.exclude(target, `${first}:answer`);
    canvas.exclude(target, `attachment:${IMAGE_A}`);
    expect(texts(canvas, target)).toEqual(['Q1', 'Q2', 'A2', 'T']);
    canvas.exclude(target, second);
    expect(texts(canvas, target)).toEqual(['Q1', 'T']);
    // Exclusions belong to the node that made them: the upstream node still sees its own parent's answer.
    expect(texts(canvas, second)).toEqual(['Q1|<image aaaa>', 'A1', 'Q2']);
  });

  it('leaves out each kind of part by its part id', () => {
    const canvas = new TestCanvas();
    const material = canvas.addMaterial('M', 'material');
    const reference = canvas.addQuestion('R');
    const note = canvas.addNote('note');
    const question = canvas.addQuestion('Q');
    canvas.answer(question, 'A');
    const mirror = canvas.addMirror({
      runner: 'pi',
      sessionId: 's',
      turnKey: 'pi:s#1',
      turnNumber: 1,
      question: 'MQ',
      answer: 'MA',
      model: null,
      at: null,
      steps: [{ name: 'Write', op: 'write', inputSummary: '', files: ['/w/x.ts'], resultSummary: '', isError: false }],
      delegatedBy: null,
    });
    const target = canvas.addQuestion('T');
    canvas.wire(material, target);
    canvas.wire(reference, target, 'quote');
    canvas.wire(note, target);
    canvas.wire(question, target);
    canvas.wire(mirror, target);
    const partIds = () => canvas.compiled(target).sources.flatMap((source) => source.contentPartIds);
    expect(partIds()).toEqual([
      `${material}:material`,
      `${reference}:reference`,
      `${note}:note`,
      `${question}:question`,
      `${question}:answer`,
      `${mirror}:question`,
      `${mirror}:answer`,
      `${mirror}:execution`,
      `${target}:question`,
    ]);
    for (const part of [
      `${material}:material`,
      `${reference}:reference`,
      `${note}:note`,
      `${question}:question`,
      `${mirror}:execution`,
    ]) {
      canvas.exclude(target, part);
      expect(partIds()).not.toContain(part);
    }
    expect(partIds()).toEqual([`${question}:answer`, `${mirror}:question`, `${mirror}:answer`, `${target}:question`]);
    // The node's own question cannot be excluded: it is what is being asked.
    canvas.exclude(target, `${target}:question`);
    expect(partIds().at(-1)).toBe(`${target}:question`);
  });

  it('de-duplicates attachments by hash across the whole context', () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('Q1', { attachments: [IMAGE_A, IMAGE_B] });
    const second = canvas.addQuestion('Q2', { attachments: [IMAGE_A] });
    const target = canvas.addQuestion('T', { attachments: [IMAGE_B] });
    canvas.wire(first, second);
    canvas.wire(second, target);
    expect(texts(canvas, target)).toEqual(['Q1|<image aaaa>|<image bbbb>', 'Q2', 'T']);
    expect(canvas.compiled(target).attachments).toEqual([IMAGE_A, IMAGE_B]);
    expect(canvas.compiled(target).sources[0]!.contentPartIds).toEqual([
      `${first}:question`,
      `attachment:${IMAGE_A}`,
      `attachment:${IMAGE_B}`,
    ]);
  });

  it('never includes archived nodes, at any layer, while keeping the wiring behind them', () => {
    const canvas = new TestCanvas();
    const material = canvas.addMaterial('M', 'archived material');
    const reference = canvas.addQuestion('archived reference');
    const root = canvas.addQuestion('root');
    const middle = canvas.addQuestion('archived middle');
    const target = canvas.addQuestion('T');
    canvas.wire(material, target);
    canvas.wire(reference, target, 'quote');
    canvas.wire(root, middle);
    canvas.wire(middle, target);
    for (const id of [material, reference, middle]) canvas.archive(id);
    expect(texts(canvas, target)).toEqual(['root', 'T']);
  });

  it('adds a mirror turn as question and answer plus one line naming the files it touched', () => {
    const canvas = new TestCanvas();
    const mirror = canvas.addMirror({
      runner: 'claude-code',
      sessionId: 's1',
      turnKey: 'claude-code:s1#u1',
      turnNumber: 1,
      question: 'fix the parser',
      answer: 'fixed it',
      model: null,
      at: null,
      steps: [
        {
          name: 'Read',
          op: 'read',
          inputSummary: 'src/a.ts',
          files: ['/p/src/a.ts'],
          resultSummary: 'secret body',
          isError: false,
        },
        {
          name: 'Edit',
          op: 'edit',
          inputSummary: 'src/a.ts',
          files: ['/p/src/a.ts', '/p/src/b.ts'],
          resultSummary: 'ok',
          isError: false,
        },
      ],
      delegatedBy: null,
    });
    const target = canvas.addQuestion('T');
    canvas.wire(mirror, target);
    expect(texts(canvas, target)).toEqual([
      'fix the parser',
      'fixed it|[Execution: 2 tool steps touched /p/src/a.ts, /p/src/b.ts; their contents were left out of this context]',
      'T',
    ]);
    canvas.edit(mirror, { includeExecution: true });
    const record = texts(canvas, target)[1]!;
    expect(record).toContain('[Execution record: 2 tool steps]');
    expect(record).toContain('result: secret body');
  });

  it('marks stale chain answers with the exact mark, only for the shown stale set', () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('root');
    canvas.answer(root, 'root answer');
    const middle = canvas.addQuestion('middle');
    canvas.wire(root, middle);
    canvas.answer(middle, 'middle answer');
    const target = canvas.addQuestion('T');
    canvas.wire(middle, target);
    canvas.edit(root, { question: 'root, edited' });
    // root's answer was written for the old wording (C6); middle read it.
    expect(canvas.staleIds()).toEqual([root, middle].sort());
    expect(texts(canvas, target)[0]).toBe('root, edited');
    expect(texts(canvas, target)[1]).toBe(`${STALE_MARK}\nroot answer`);
    expect(texts(canvas, target)[3]).toBe(`${STALE_MARK}\nmiddle answer`);
    canvas.judge(middle, 0.2);
    expect(texts(canvas, target)[3]).toBe('middle answer');
    expect(texts(canvas, target)[1]).toBe(`${STALE_MARK}\nroot answer`);
  });

  it('is deterministic: the same graph gives the same bytes, and estimates tokens per layer', () => {
    const canvas = new TestCanvas();
    const material = canvas.addMaterial('M', 'x'.repeat(400));
    const target = canvas.addQuestion('T');
    canvas.wire(material, target);
    const first = compile(canvas.graph, target);
    const second = compile(canvas.graph, target, { estimateTokens: (text) => text.length });
    expect(hashCanonical(first.messages)).toBe(hashCanonical(second.messages));
    expect(first.tokens.question).toBe(1);
    expect(first.tokens.total).toBe(
      first.tokens.materials + first.tokens.references + first.tokens.chain + first.tokens.question,
    );
    expect(second.tokens.materials).toBe(texts(canvas, target)[0]!.length);
  });

  it('refuses to compile a node that has no question', () => {
    const canvas = new TestCanvas();
    const note = canvas.addNote('n');
    expect(() => compile(canvas.graph, note)).toThrow(GraphError);
    expect(() => compile(canvas.graph, 'missing')).toThrow(/no node missing/);
  });
});

describe('golden compiled output', () => {
  it('plain chain', async () => {
    const canvas = new TestCanvas();
    const first = canvas.addQuestion('What is a context graph?');
    canvas.answer(first, 'Questions wired together so the wires are the context.');
    const second = canvas.addQuestion('How is it compiled?');
    canvas.wire(first, second);
    canvas.answer(second, 'Materials, references, then the solid chain in order, the question last.');
    const third = canvas.addQuestion('What is hashed?');
    canvas.wire(second, third);
    await expect(golden(canvas, third)).toMatchFileSnapshot('./__golden__/plain-chain.json');
  });

  it('materials and a reference', async () => {
    const canvas = new TestCanvas();
    const pasted = canvas.addMaterial('Pasted notes', 'Line one.\nLine two.');
    const page = canvas.addMaterial('A page', 'Snapshot body.', {
      type: 'url',
      url: 'http://example.org/a',
      finalUrl: 'https://example.org/a',
      fetchedAt: 1_700_000_000_000,
      title: 'A page',
    });
    const pdf = canvas.addMaterial('Paper', 'Passage.', {
      type: 'pdf',
      fileName: 'paper.pdf',
      pages: [3, 4],
      documentHash: null,
    });
    const source = canvas.addQuestion('Side question?');
    canvas.answer(source, 'Side answer.');
    const target = canvas.addQuestion('Main question?');
    canvas.wire(pasted, target);
    canvas.wire(page, target);
    canvas.wire(pdf, target);
    canvas.wire(source, target, 'quote');
    await expect(golden(canvas, target)).toMatchFileSnapshot('./__golden__/materials-and-reference.json');
  });

  it('quote versus full', async () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('Root question?');
    canvas.answer(root, 'Root answer.');
    const note = canvas.addNote('A note in the source chain.');
    const source = canvas.addQuestion('Source question?');
    canvas.wire(root, source);
    canvas.wire(note, source);
    canvas.answer(source, 'Source answer.');
    const quoted = canvas.addQuestion('Quoted target?');
    const full = canvas.addQuestion('Full target?');
    canvas.wire(source, quoted, 'quote');
    canvas.wire(source, full, 'full');
    const both = {
      quote: JSON.parse(golden(canvas, quoted)) as unknown,
      full: JSON.parse(golden(canvas, full)) as unknown,
    };
    await expect(`${JSON.stringify(both, null, 2)}\n`).toMatchFileSnapshot('./__golden__/quote-vs-full.json');
  });

  it('stale and archived', async () => {
    const canvas = new TestCanvas();
    const root = canvas.addQuestion('Root?');
    canvas.answer(root, 'Root answer.');
    const archived = canvas.addQuestion('Put aside?');
    canvas.answer(archived, 'Archived answer text.');
    const middle = canvas.addQuestion('Middle?');
    canvas.wire(root, middle);
    canvas.wire(archived, middle);
    canvas.answer(middle, 'Middle answer.');
    const target = canvas.addQuestion('Target?');
    canvas.wire(middle, target);
    canvas.archive(archived);
    canvas.answer(root, 'Root answer, regenerated.');
    expect(canvas.staleIds()).toEqual([middle]);
    const output = golden(canvas, target);
    expect(output).not.toContain('Archived answer text.');
    await expect(output).toMatchFileSnapshot('./__golden__/stale-and-archived.json');
  });

  it('diamond DAG', async () => {
    const canvas = new TestCanvas();
    const top = canvas.addQuestion('Top?');
    canvas.answer(top, 'Top answer.');
    const left = canvas.addQuestion('Left?');
    const right = canvas.addQuestion('Right?');
    canvas.wire(top, right);
    canvas.wire(top, left);
    canvas.answer(left, 'Left answer.');
    canvas.answer(right, 'Right answer.');
    const bottom = canvas.addQuestion('Bottom?');
    canvas.wire(right, bottom);
    canvas.wire(left, bottom);
    const output = golden(canvas, bottom);
    expect(output.match(/Top answer\./g)).toHaveLength(1);
    await expect(output).toMatchFileSnapshot('./__golden__/diamond.json');
  });
});
