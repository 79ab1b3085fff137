import type { CanvasDocument } from '../../protocol/index.ts';
import { applyChange } from './apply-change.ts';
import type { GraphChange, NodeDraft } from './changes.ts';
import { upstreamSnapshot } from './fingerprint.ts';
import { documentFromGraph, emptyGraph, type Graph } from './graph.ts';

const DEMO_MODEL = 'demo/pre-written';
const HOUR = 3_600_000;

/**
 * The first-run canvas. It teaches by being used: two materials (pasted, and a URL snapshot
 * with its fetch time), a solid three-question chain with pre-written answers labelled
 * `origin: 'demo'`, a note wired into the chain, a quoted dashed reference (with its trail) and a full one, an
 * archived question the compiler skips, a frame, and one answer that is stale because the
 * answer above it was replaced by a newer version after it was written.
 */
export function demoCanvas(now: number, newId: () => string): CanvasDocument {
  let graph: Graph = emptyGraph({ id: newId(), name: 'Welcome to Weft', workingDirectory: null, createdAt: now });
  let tick = 0;
  const apply = (change: GraphChange): string[] => {
    const result = applyChange(graph, change, { now: now + tick++, newId });
    if (!result.ok) throw result.error; // the demo is fixed data; a refusal is a bug in this file
    graph = result.value.graph;
    return result.value.created;
  };
  const add = (node: NodeDraft) => apply({ type: 'add-node', node })[0]!;
  const solid = (from: string, to: string) => apply({ type: 'wire', from, to, kind: 'solid' });
  const dashed = (from: string, to: string, depth: 'quote' | 'full') =>
    apply({ type: 'wire', from, to, kind: 'dashed', depth });
  const answer = (nodeId: string, text: string) => {
    const node = graph.nodes.get(nodeId);
    apply({
      type: 'add-version',
      nodeId,
      version: {
        text,
        question: node?.kind === 'question' ? node.question : '',
        model: DEMO_MODEL,
        requestHash: null,
        ...upstreamSnapshot(graph, nodeId),
        origin: 'demo',
        status: 'complete',
        branchOf: null,
      },
    });
  };

  add({
    kind: 'frame',
    label: 'Start here: a chain of questions. Solid wires carry the whole turn; this frame only groups.',
    position: { x: 360, y: -60 },
    size: { width: 420, height: 840 },
  });
  const notes = apply({
    type: 'import-material',
    material: {
      kind: 'material',
      title: 'My notes on scattering',
      text: [
        'Small particles (much smaller than the wavelength) scatter light with an intensity proportional to 1/λ⁴.',
        'Blue light (~450 nm) is therefore scattered about 5.5 times more than red light (~700 nm).',
        'Larger droplets (cloud, fog) scatter all visible wavelengths about equally.',
      ].join('\n'),
      provenance: { type: 'pasted' },
      position: { x: 0, y: 0 },
    },
  })[0]!;
  const snapshot = apply({
    type: 'import-material',
    material: {
      kind: 'material',
      title: 'Rayleigh scattering (encyclopedia snapshot)',
      text: [
        'Rayleigh scattering is the elastic scattering of light by particles far smaller than its wavelength.',
        'It explains the blue colour of the daytime sky and the reddening of the Sun near the horizon.',
        'The human eye is less sensitive to violet, and sunlight carries less violet than blue.',
      ].join('\n'),
      provenance: {
        type: 'url',
        url: 'https://en.wikipedia.org/wiki/Rayleigh_scattering',
        finalUrl: 'https://en.wikipedia.org/wiki/Rayleigh_scattering',
        fetchedAt: Math.max(0, now - 24 * HOUR),
        title: 'Rayleigh scattering - Wikipedia',
      },
      position: { x: 0, y: 260 },
    },
  })[0]!;

  const first = add({
    kind: 'question',
    questionAuthor: 'app',
    question: 'How much more is blue light scattered than red, and why?',
    position: { x: 400, y: 0 },
  });
  const second = add({
    kind: 'question',
    questionAuthor: 'app',
    question: 'Then why is the daytime sky blue rather than violet?',
    position: { x: 400, y: 280 },
  });
  const third = add({
    kind: 'question',
    questionAuthor: 'app',
    question: 'Why does the sky turn red and orange at sunset?',
    position: { x: 400, y: 560 },
  });
  const note = add({
    kind: 'note',
    author: 'app',
    text: 'A note wired solid joins the chain as my own words: keep answers to the physics, in three sentences or fewer.',
    position: { x: 820, y: 640 },
  });
  const discarded = add({
    kind: 'question',
    questionAuthor: 'app',
    question: 'Is the sky blue because it reflects the ocean? (archived: a wrong premise, so the compiler skips it)',
    position: { x: 0, y: 520 },
  });
  const mie = add({
    kind: 'question',
    questionAuthor: 'app',
    question: 'What is Mie scattering?',
    position: { x: 820, y: -40 },
  });
  const clouds = add({
    kind: 'question',
    questionAuthor: 'app',
    question: 'Why are clouds white, then?',
    position: { x: 820, y: 200 },
  });
  const water = add({
    kind: 'question',
    questionAuthor: 'app',
    question: 'What colour is pure water itself?',
    position: { x: 1240, y: 400 },
  });
  const sea = add({
    kind: 'question',
    questionAuthor: 'app',
    question: 'Does the sea look blue for the same reason?',
    position: { x: 820, y: 400 },
  });

  solid(notes, first);
  solid(first, second);
  solid(snapshot, second);
  solid(discarded, second);
  solid(second, third);
  solid(note, third);
  solid(mie, clouds);
  solid(water, sea);
  dashed(sea, second, 'full');
  dashed(clouds, third, 'quote');

  answer(
    mie,
    'Mie scattering is scattering by particles about as large as the wavelength or larger, such as cloud droplets. It depends only weakly on wavelength and sends most light forward.',
  );
  answer(
    clouds,
    'Cloud droplets are large enough for Mie scattering, which treats all visible wavelengths about equally, so the scattered light stays white.',
  );
  answer(
    water,
    'Very slightly blue: water molecules absorb a little red light, which only shows over metres of depth.',
  );
  answer(
    sea,
    'Only partly. The sea reflects the sky, but water also absorbs red light slightly, so deep water looks blue even under grey skies.',
  );
  answer(
    discarded,
    'No. The sky is blue over deserts and far from any ocean; the colour comes from scattering in the air itself.',
  );
  apply({ type: 'archive', nodeId: discarded });
  answer(
    first,
    'Scattering by air molecules grows as 1/λ⁴, so 450 nm blue light is scattered about (700/450)⁴ ≈ 5.5 times more than 700 nm red light.',
  );
  answer(second, 'Violet is scattered even more, but sunlight has less violet and our eyes are less sensitive to it.');
  answer(
    third,
    'At sunset light crosses much more air, so most blue is scattered out of the direct beam and the remaining light is red and orange.',
  );
  // A newer version of the answer above: the sunset answer was written against the old one,
  // so its recorded fingerprint no longer matches and it shows as stale until replayed.
  answer(
    second,
    'Violet is scattered even more than blue, but sunlight carries less violet, some is absorbed high in the atmosphere, and the eye’s cones respond more to blue; the mix we see reads as sky blue.',
  );
  return documentFromGraph(graph);
}
