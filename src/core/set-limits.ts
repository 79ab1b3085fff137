import type { ModelInfo, ModelSet } from '../../protocol/index.ts';

/** What the set needs to know of each model: how much it reads and whether it takes images. */
export type SetModel = Pick<ModelInfo, 'id' | 'label' | 'contextWindow' | 'takesImages'>;

/** The limits a set's one context is compiled to, and which model set each. */
export interface SetLimits {
  /** The smallest context window in the set (the recall budget and the fit check follow it). */
  contextWindow: number;
  /** The model with that window (the first one, when several share it). */
  windowSetBy: string;
  /** Images go in only when every model takes them. */
  images: boolean;
  /** The first model that takes no images; null when all do. */
  imagesSetBy: string | null;
  /** What the preview says, e.g. "Compiled for Local 8B (8,192 tokens, no images)". */
  sentence: string;
}

export type SetLimitsResult =
  { ok: true; value: SetLimits } | { ok: false; code: 'model-set-invalid'; message: string };

const AGENT_MODEL = /^agent:/;

/** An agent lane's id (`agent:…`): never a member of a set, in the app or on the server. */
export function isAgentLane(modelId: string): boolean {
  return AGENT_MODEL.test(modelId);
}
/** Counts are written in the person's locale, as `plural` writes them. */
const NUMBER = new Intl.NumberFormat();

/**
 * Issue 31: the set compiles its context once, for its most restrictive model: the smallest context window, and
 * images only if every model takes them. A set names two or more distinct models, none of them an agent lane (an
 * agent writes files; it is asked by hand, one at a time), each one the app knows.
 */
export function setLimits(set: Pick<ModelSet, 'models'>, known: readonly SetModel[]): SetLimitsResult {
  const refuse = (message: string): SetLimitsResult => ({ ok: false, code: 'model-set-invalid', message });
  if (new Set(set.models).size !== set.models.length) return refuse('A model set names each model once.');
  if (set.models.length < 2) return refuse('A model set needs two or more models.');
  const models: SetModel[] = [];
  for (const id of set.models) {
    if (isAgentLane(id)) return refuse(`${id} is an agent lane: agents are asked by hand, not in a set.`);
    const model = known.find((each) => each.id === id);
    if (!model) return refuse(`${id} is not a configured model.`);
    models.push(model);
  }
  let smallest = models[0]!;
  for (const model of models) if (model.contextWindow < smallest.contextWindow) smallest = model;
  const imageBlind = models.find((model) => !model.takesImages) ?? null;
  const window = `${smallest.label} set the window (${NUMBER.format(smallest.contextWindow)} tokens)`;
  const images = imageBlind ? `${imageBlind.label} takes no images, so images go as placeholders` : 'images go in';
  return {
    ok: true,
    value: {
      contextWindow: smallest.contextWindow,
      windowSetBy: smallest.id,
      images: imageBlind === null,
      imagesSetBy: imageBlind?.id ?? null,
      sentence: `One context for ${models.length} models: ${window}; ${images}.`,
    },
  };
}
