import type { CanvasDocument, CanvasNode, Wire } from '../../protocol/index.ts';
import { emptyCanvasDocument } from '../../src/core/index.ts';

/**
 * Generated canvases for the core benchmark, with realistic text: answers of 1–2 KB and
 * questions of one sentence, built from a seeded PRNG so every run measures the same graph.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they ' +
  'scattering light wavelength model context answer question graph node wire upstream compile hash stale version ' +
  'material reference chain memory evidence result measure sample error method paper figure table data analysis ' +
  'because therefore however although whereas since while unless between within across toward around during'
).split(' ');

export function prose(random: () => number, minLength: number, maxLength: number): string {
  const target = minLength + Math.floor(random() * (maxLength - minLength));
  const parts: string[] = [];
  let length = 0;
  let sentence = 0;
  while (length < target) {
    const word = WORDS[Math.floor(random() * WORDS.length)]!;
    const text = sentence === 0 ? word[0]!.toUpperCase() + word.slice(1) : word;
    sentence += 1;
    const end = sentence > 8 && random() < 0.15;
    parts.push(end ? `${text}.` : text);
    if (end) sentence = 0;
    length += text.length + 1;
  }
  return parts.join(' ');
}

interface Builder {
  document: CanvasDocument;
  random: () => number;
  clock: number;
}

function builder(seed: number): Builder {
  return {
    document: emptyCanvasDocument({ id: 'bench', name: 'bench', workingDirectory: null, createdAt: 0 }),
    random: seededRandom(seed),
    clock: 1,
  };
}

const HASH = '0'.repeat(64);

function addQuestion(build: Builder, id: string, answered = true): CanvasNode {
  const at = build.clock++;
  const question = `${prose(build.random, 40, 120)}?`;
  const node: CanvasNode = {
    id,
    kind: 'question',
    createdAt: at,
    position: { x: 0, y: 0 },
    size: null,
    archived: false,
    archivedAt: null,
    excludedParts: [],
    question,
    versions: answered
      ? [
          {
            id: `${id}-v1`,
            text: prose(build.random, 1024, 2048),
            // The answer was written for the question as it stands, so only upstream drift makes it stale.
            question,
            model: 'bench/model',
            createdAt: at,
            requestHash: null,
            upstreamFingerprint: HASH,
            upstream: { base: null, parts: [], removed: [] },
            origin: 'generated',
            status: 'complete',
            branchOf: null,
          },
        ]
      : [],
    currentVersionId: answered ? `${id}-v1` : null,
    autoRerun: { enabled: false, rounds: 1 },
    model: null,
    attachments: [],
  };
  build.document.nodes.push(node);
  return node;
}

function addMaterial(build: Builder, id: string): CanvasNode {
  const node: CanvasNode = {
    id,
    kind: 'material',
    createdAt: build.clock++,
    position: { x: 0, y: 0 },
    size: null,
    archived: false,
    archivedAt: null,
    excludedParts: [],
    title: prose(build.random, 10, 40),
    text: prose(build.random, 1024, 2048),
    provenance: { type: 'pasted' },
  };
  build.document.nodes.push(node);
  return node;
}

function wire(build: Builder, from: string, to: string, kind: 'solid' | 'quote' | 'full'): void {
  const base = { id: `w${build.document.wires.length}`, from, to, createdAt: build.clock++ };
  const made: Wire = kind === 'solid' ? { ...base, kind: 'solid' } : { ...base, kind: 'dashed', depth: kind };
  build.document.wires.push(made);
}

/**
 * One target whose upstream holds `upstream` nodes: 5% materials, 5% quoted references, the
 * rest a solid DAG in which each node has one or two earlier parents (so the chain is deep
 * and branching, with merges).
 */
export function wideUpstreamCanvas(upstream: number, seed = 1): { document: CanvasDocument; targetId: string } {
  const build = builder(seed);
  return { document: build.document, targetId: addWideUpstream(build, upstream) };
}

/**
 * The same target inside a canvas of `total` nodes, the rest threads as in `threadsCanvas`: opening it, the
 * first compile of the target builds the wire index over the whole canvas and renders every upstream text.
 */
export function wideUpstreamInCanvas(
  upstream: number,
  total: number,
  seed = 1,
): { document: CanvasDocument; targetId: string } {
  const build = builder(seed);
  const targetId = addWideUpstream(build, upstream);
  addThreads(build, total, []);
  return { document: build.document, targetId };
}

function addWideUpstream(build: Builder, upstream: number): string {
  const materials = Math.round(upstream * 0.05);
  const references = Math.round(upstream * 0.05);
  const chain = upstream - materials - references;
  const chainIds: string[] = [];
  for (let index = 0; index < chain; index += 1) {
    const id = `c${index}`;
    addQuestion(build, id);
    if (index > 0) {
      // Always from the previous node, so every chain node is upstream of the target; often
      // a second parent further back, so the chain branches and merges.
      wire(build, chainIds[index - 1]!, id, 'solid');
      if (index > 10 && build.random() < 0.3)
        wire(build, chainIds[Math.floor(build.random() * (index - 5))]!, id, 'solid');
    }
    chainIds.push(id);
  }
  const target = addQuestion(build, 'target', false);
  wire(build, chainIds.at(-1)!, target.id, 'solid');
  for (let index = 0; index < materials; index += 1) {
    addMaterial(build, `m${index}`);
    wire(build, `m${index}`, chainIds[Math.floor(build.random() * chainIds.length)]!, 'solid');
  }
  for (let index = 0; index < references; index += 1) {
    addQuestion(build, `r${index}`);
    wire(build, `r${index}`, chainIds[Math.floor(build.random() * chainIds.length)]!, 'quote');
  }
  return target.id;
}

/**
 * A canvas of many independent threads, the shape a large canvas takes in use: each thread is
 * a branching solid DAG of 10–40 questions with a material or two, and some threads quote an
 * answer from an earlier thread. The first thread is a chain with exactly 50 descendants below
 * its root (`editId`), for the incremental figure.
 */
export function threadsCanvas(total: number, seed = 2): { document: CanvasDocument; editId: string } {
  const build = builder(seed);
  const first: string[] = [];
  for (let index = 0; index <= 50; index += 1) {
    const id = `t0-${index}`;
    addQuestion(build, id);
    if (index > 0) wire(build, first[index - 1]!, id, 'solid');
    first.push(id);
  }
  addThreads(build, total, [...first]);
  return { document: build.document, editId: first[0]! };
}

/** Threads of 10–40 nodes until the canvas holds `total`; some quote an answer from `answered` (past its first 60). */
function addThreads(build: Builder, total: number, answered: string[]): void {
  let thread = 1;
  while (build.document.nodes.length < total) {
    const size = Math.min(total - build.document.nodes.length, 10 + Math.floor(build.random() * 31));
    const ids: string[] = [];
    for (let index = 0; index < size; index += 1) {
      const id = `t${thread}-${index}`;
      if (index > 0 && build.random() < 0.06) {
        addMaterial(build, id);
        wire(build, id, ids[ids.length - 1]!, 'solid');
        continue;
      }
      addQuestion(build, id);
      if (ids.length > 0) wire(build, ids[Math.max(0, ids.length - 1 - Math.floor(build.random() * 4))]!, id, 'solid');
      ids.push(id);
    }
    if (build.random() < 0.3 && answered.length > 60) {
      const source = answered[60 + Math.floor(build.random() * (answered.length - 60))]!;
      wire(build, source, ids[ids.length - 1]!, 'quote');
    }
    answered.push(...ids);
    thread += 1;
  }
}

/** The worst case for fingerprints: one solid chain of `length` answered questions. */
export function deepChainCanvas(length: number, seed = 4): CanvasDocument {
  const build = builder(seed);
  for (let index = 0; index < length; index += 1) {
    addQuestion(build, `d${index}`);
    if (index > 0) wire(build, `d${index - 1}`, `d${index}`, 'solid');
  }
  return build.document;
}
