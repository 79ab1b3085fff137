import { describe, expect, it } from 'vitest';
import type { AskCanvasTurn } from '../../../protocol/index.ts';
import { STALE_MARK } from '../compiled-context.ts';
import { graphFromDocument, documentFromGraph } from '../graph.ts';
import { hashCanonical } from '../hashing.ts';
import { TestCanvas } from '../test-canvas.ts';
import { askCanvasEvent, askCanvasRequest } from './ask-canvas-request.ts';
import { canvasOutline } from './canvas-outline.ts';
import { ASK_CANVAS_WINDOW, chatWindow } from './chat-window.ts';

/** A canvas with a chain, a note, a material, a reference, a frame and an archived node; one answer gone stale. */
function sampleCanvas() {
  const canvas = new TestCanvas();
  const material = canvas.addMaterial('Survey 2024', 'Forty percent of readers skim.');
  const root = canvas.addQuestion('What do readers do with long papers?');
  canvas.wire(material, root);
  canvas.answer(root, 'They skim the abstract first.');
  const follow = canvas.addQuestion('How should the abstract be written?');
  canvas.wire(root, follow);
  canvas.answer(follow, 'Lead with the result.');
  const side = canvas.addQuestion('Which journals require structured abstracts?');
  canvas.answer(side, 'Many medical journals do.');
  canvas.wire(side, follow, 'quote');
  const note = canvas.addNote('Remember the word limit.');
  const archived = canvas.addQuestion('An abandoned idea about titles');
  canvas.answer(archived, 'Titles matter less.');
  canvas.wire(archived, follow, 'quote');
  canvas.archive(archived);
  const frame = canvas.addFrame('Abstracts');
  // An edit of the root's question: its own answer and the follow-up's are now stale.
  canvas.edit(root, { question: 'What do readers do with long papers, mostly?' });
  return { canvas, material, root, follow, side, note, archived, frame };
}

function turn(index: number, answer = `answer ${index}`): AskCanvasTurn {
  return {
    id: `t${index}`,
    askedAt: 1_700_000_000_000 + index,
    question: `question ${index}`,
    answer,
    status: answer ? 'complete' : 'failed',
    code: answer ? null : 'provider-error',
    model: 'test/model',
    requestHash: 'a'.repeat(64),
    focusId: null,
    layers: { outline: [], chain: [], materials: [], references: [] },
  };
}

const allText = (plan: ReturnType<typeof askCanvasRequest>) =>
  plan.request.messages.flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')));

describe('the canvas outline (C17)', () => {
  it('numbers every live node by creation, with status, stale mark and parents; archived nodes and frames are left out', () => {
    const { canvas, material, root, follow, side, note, archived, frame } = sampleCanvas();
    const stale = canvas.shownStale();
    expect([...stale].sort()).toEqual([root, follow].sort());
    const outline = canvasOutline(canvas.graph, stale, follow);
    expect(outline.entries.map((entry) => entry.nodeId)).toEqual([material, root, follow, side, note]);
    expect(outline.text).toBe(
      [
        '[Canvas outline: 5 live nodes, numbered #1…#5]',
        '#1 material: Survey 2024',
        '#2 question [stale]: What do readers do with long papers, mostly? ← parents #1',
        '#3 question [stale] (focused): How should the abstract be written? ← parents #2; references #4',
        '#4 question [answered]: Which journals require structured abstracts?',
        '#5 note: Remember the word limit.',
      ].join('\n'),
    );
    expect(outline.numberOf.has(archived)).toBe(false);
    expect(outline.numberOf.has(frame)).toBe(false);
    expect(outline.text).not.toContain('abandoned');
  });

  it('is the same for the same canvas state whatever order the nodes are stored in', () => {
    const { canvas } = sampleCanvas();
    const document = documentFromGraph(canvas.graph);
    const shuffled = graphFromDocument({
      ...document,
      nodes: [...document.nodes].reverse(),
      wires: [...document.wires].reverse(),
    });
    const stale = canvas.shownStale();
    expect(canvasOutline(shuffled, stale).text).toBe(canvasOutline(canvas.graph, stale).text);
  });

  it('renumbers once a node is archived, and a judge dismissal takes the stale mark away', () => {
    const { canvas, follow, side } = sampleCanvas();
    canvas.judge(follow, 0.1);
    const judged = canvasOutline(canvas.graph, canvas.shownStale()).text;
    expect(judged).toContain('#3 question [answered]: How should');
    // The root's own question was edited: no judge rules that away.
    expect(judged).toContain('#2 question [stale]');
    canvas.archive(side);
    const outline = canvasOutline(canvas.graph, canvas.shownStale());
    expect(outline.entries).toHaveLength(4);
    expect(outline.text).toContain('#4 note: Remember the word limit.');
    expect(outline.text).not.toContain('references');
  });
});

describe('the request of one ask (C17)', () => {
  it('sends the outline, the focused chain as compile builds it with its stale mark, its materials and references, then the question', () => {
    const { canvas, material, root, follow, side } = sampleCanvas();
    const stale = canvas.shownStale();
    const plan = askCanvasRequest(canvas.graph, {
      question: 'Which answers need a rerun?',
      focusId: follow,
      turns: [],
      stale,
      model: 'test/model',
    });
    const compiled = canvas.compiled(follow);
    const texts = allText(plan);
    // The compiled messages appear verbatim, in their order, after the outline and the focus header.
    const compiledTexts = compiled.messages.map((message) => (message.content[0] as { text: string }).text);
    expect(texts.slice(3, 3 + compiledTexts.length)).toEqual(compiledTexts);
    // The focused answer follows its question, stale-marked.
    expect(texts.at(-2)).toBe(`${STALE_MARK}\nLead with the result.`);
    expect(texts.at(-1)).toBe('Which answers need a rerun?');
    expect(texts[1]).toContain('#3 question [stale] (focused)');
    expect(plan.focusNumber).toBe(3);
    expect(plan.layers).toEqual({
      outline: plan.layers.outline,
      chain: [root, follow],
      materials: [material],
      references: [side],
    });
    expect(plan.parts.map((part) => part.kind)).toEqual([
      'instructions',
      'outline',
      'focus',
      'materials',
      'references',
      'chain',
      'chain',
      'chain',
      'chain',
      'question',
    ]);
    expect(plan.request.messages.at(-1)!.role).toBe('user');
    expect(plan.requestHash).toBe(hashCanonical(plan.request));
  });

  it('leaves archived nodes out of every layer, even when they were wired into the focus', () => {
    const { canvas, follow, archived } = sampleCanvas();
    const plan = askCanvasRequest(canvas.graph, {
      question: 'What is on the canvas?',
      focusId: follow,
      turns: [],
      stale: canvas.shownStale(),
      model: 'test/model',
    });
    for (const layer of Object.values(plan.layers)) expect(layer).not.toContain(archived);
    expect(allText(plan).join('\n')).not.toMatch(/abandoned|Titles matter less/);
  });

  it('an archived or frame focus sends the outline only', () => {
    const { canvas, archived, frame } = sampleCanvas();
    for (const focusId of [archived, frame, 'missing']) {
      const plan = askCanvasRequest(canvas.graph, {
        question: 'Anything?',
        focusId,
        turns: [],
        stale: canvas.shownStale(),
        model: 'test/model',
      });
      expect(plan.parts.map((part) => part.kind)).toEqual(['instructions', 'outline', 'question']);
      expect(plan.focusNumber).toBeNull();
    }
  });

  it('a note in focus goes out as its text in the chain layer', () => {
    const { canvas, note } = sampleCanvas();
    const plan = askCanvasRequest(canvas.graph, {
      question: 'Is the note followed?',
      focusId: note,
      turns: [],
      stale: canvas.shownStale(),
      model: 'test/model',
    });
    expect(allText(plan)[2]).toBe('[Focused node #5: a note]\nRemember the word limit.');
    expect(plan.layers.chain).toEqual([note]);
  });

  it('gives the same bytes and hash for the same canvas, chat and question, and another hash when the canvas changes', () => {
    const { canvas, follow, note } = sampleCanvas();
    const input = { question: 'Q?', focusId: follow, turns: [turn(1)], stale: canvas.shownStale(), model: 'm/x' };
    const first = askCanvasRequest(canvas.graph, input);
    const second = askCanvasRequest(canvas.graph, input);
    expect(JSON.stringify(second.request)).toBe(JSON.stringify(first.request));
    expect(second.requestHash).toBe(first.requestHash);
    canvas.edit(note, { text: 'Remember the 250-word limit.' });
    expect(askCanvasRequest(canvas.graph, { ...input, stale: canvas.shownStale() }).requestHash).not.toBe(
      first.requestHash,
    );
  });

  it('carries the last eight answered turns, oldest first, and leaves out turns that failed before any text', () => {
    const turns = Array.from({ length: 12 }, (_, index) => turn(index + 1, index === 10 ? '' : `answer ${index + 1}`));
    expect(ASK_CANVAS_WINDOW).toBe(8);
    expect(chatWindow(turns).map((entry) => entry.id)).toEqual(['t4', 't5', 't6', 't7', 't8', 't9', 't10', 't12']);
    const { canvas } = sampleCanvas();
    const plan = askCanvasRequest(canvas.graph, {
      question: 'And now?',
      focusId: null,
      turns,
      stale: canvas.shownStale(),
      model: 'm/x',
    });
    expect(plan.window).toBe(8);
    const texts = allText(plan);
    expect(texts.slice(2, -1)).toEqual(
      [4, 5, 6, 7, 8, 9, 10, 12].flatMap((index) => [`question ${index}`, `answer ${index}`]),
    );
    expect(plan.request.messages.slice(2, -1).map((message) => message.role)).toEqual(
      Array.from({ length: 8 }, () => ['user', 'assistant']).flat(),
    );
  });

  it('turns images into placeholders for a model that takes none, and lists them for one that does', () => {
    const canvas = new TestCanvas();
    const hash = 'b'.repeat(64);
    canvas.apply({
      type: 'import-material',
      material: {
        kind: 'material',
        title: 'Figure',
        text: '',
        provenance: { type: 'image', attachmentHash: hash, fileName: 'f.png' },
      },
      attachment: { hash, mediaType: 'image/png', dataBase64: 'AAAA', fileName: 'f.png' },
    } as never);
    const material = [...canvas.graph.nodes.keys()][0]!;
    const question = canvas.addQuestion('What does the figure show?');
    canvas.wire(material, question);
    const base = { question: 'Q', focusId: question, turns: [], stale: new Set<string>(), model: 'm/x' };
    const withImages = askCanvasRequest(canvas.graph, base);
    expect(withImages.attachments).toEqual([hash]);
    const without = askCanvasRequest(canvas.graph, { ...base, images: false });
    expect(without.attachments).toEqual([]);
    expect(JSON.stringify(without.request)).toContain('left out: this model does not take images');
  });

  it('its event carries the hash and the count per layer, never text', () => {
    const { canvas, follow } = sampleCanvas();
    const plan = askCanvasRequest(canvas.graph, {
      question: 'A secret question text',
      focusId: follow,
      turns: [turn(1)],
      stale: canvas.shownStale(),
      model: 'm/x',
    });
    const event = askCanvasEvent('turn-1', plan, follow);
    expect(event).toEqual({
      op: 'ask-canvas',
      objectId: 'turn-1',
      meta: {
        requestHash: plan.requestHash,
        model: 'm/x',
        messageCount: plan.request.messages.length,
        focus: follow,
        outline: 5,
        chain: 2,
        materials: 1,
        references: 1,
        turns: 1,
      },
    });
    canvas.apply({ type: 'record', event });
    expect(JSON.stringify(canvas.graph.events.at(-1))).not.toContain('secret');
  });
});
