import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, NoObjectGeneratedError, Output } from 'ai';
import {
  DossierAnswerSchema,
  type Dossier,
  type DossierAnswer,
  type DossierBuildRequest,
  type DossierMode,
  type DossierPlan,
  type DossierSentenceProposal,
  type PendingFact,
  type Topic,
  WeftError,
} from '../../protocol/index.ts';
import { estimateTokensByScript } from '../../src/core/index.ts';
import {
  confirmedSelection,
  dossierFromAnswer,
  labelledKeys,
  planDossier,
  shownKeys,
  splitNewSentences,
  withoutStruck,
  type DossierTurn,
} from '../../src/core/dossiers/index.ts';
import { isPutAside } from '../../src/core/index.ts';
import { mapProviderError } from '../models/index.ts';
import type { TopicStore } from '../topics/index.ts';
import type { DossierStore, StoredVersion } from './dossier-store.ts';
import { readDossierTurns, type TurnSources } from './dossier-turns.ts';

/** A dossier is written in one request; a model slower than this is given up on and nothing is written. */
export const DOSSIER_TIMEOUT_MS = 180_000;

const DOSSIER_OUTPUT =
  'The dossier: four sections, each a list of sentences citing the keys of the turns they rest on.';

export interface DossierModel {
  id: string;
  model: LanguageModelV3;
  pricePerMTokIn: number | null;
}

export interface DossierRunContext {
  store: DossierStore;
  topics: TopicStore;
  sources: TurnSources;
  now: () => number;
  newId: () => string;
  /** Known key values, scrubbed from any provider message. */
  secrets?: readonly string[];
  /**
   * Issue 29.1 (Settings `memoryAutoAccept.dossierSentences`; absent: true): false files the sentences a run writes
   * that the dossier did not hold in the Inbox instead of writing them.
   */
  autoAcceptSentences?: boolean;
}

interface Prepared {
  topic: Topic;
  current: Dossier | null;
  turns: DossierTurn[];
  facts: PendingFact[];
}

/** Whether a sentence's words were struck (a `dossier-sentence` tombstone in the sources' put-asides). */
export function sentenceStruck(sources: TurnSources): (text: string) => boolean {
  const putAsides = sources.putAsides ?? new Set<string>();
  return (text) => isPutAside(putAsides, 'dossier-sentence', text);
}

async function prepare(context: DossierRunContext, topicId: string): Promise<Prepared> {
  const { record } = await context.topics.read();
  const topic = record.topics.find((candidate) => candidate.id === topicId);
  if (!topic) throw new WeftError('topic-unknown-topic', 'There is no topic with that id.', 404);
  const current = context.store.read(topicId);
  return {
    topic,
    // A struck sentence is not shown to the model as part of the dossier to keep (issue 29.2).
    current: current && withoutStruck(current, sentenceStruck(context.sources)),
    turns: await readDossierTurns(labelledKeys(record, topicId), context.sources),
    facts: context.store.pending(topicId),
  };
}

/** What a run would read and send, before it runs (C15). */
export async function planDossierRun(
  context: DossierRunContext,
  topicId: string,
  mode: DossierMode,
  model: Pick<DossierModel, 'id' | 'pricePerMTokIn'> | null,
): Promise<DossierPlan> {
  const prepared = await prepare(context, topicId);
  return planDossier({
    ...prepared,
    mode,
    read: context.store.readKeys(topicId),
    modelId: model?.id ?? null,
    pricePerMTokIn: model?.pricePerMTokIn ?? null,
    estimateTokens: estimateTokensByScript,
  }).plan;
}

/**
 * Builds, updates or rebuilds a topic's dossier from a plan the person confirmed: reads only the turns and facts
 * that plan listed (and that are still there), sends the one request the plan showed, validates the answer and its
 * citations, and writes the next version under the store's lock — consuming only the facts it read.
 */
export async function runDossier(
  context: DossierRunContext,
  topicId: string,
  request: DossierBuildRequest,
  model: DossierModel,
): Promise<{ version: StoredVersion; consumed: string[]; proposed: DossierSentenceProposal[] }> {
  const prepared = await prepare(context, topicId);
  const chosen = confirmedSelection(request, prepared);
  const { plan, turns } = planDossier({
    topic: prepared.topic,
    mode: request.mode,
    current: prepared.current,
    turns: chosen.turns,
    read: new Set(),
    facts: chosen.facts,
    modelId: model.id,
    pricePerMTokIn: model.pricePerMTokIn,
    estimateTokens: estimateTokensByScript,
  });
  if (turns.length === 0 && chosen.facts.length === 0)
    throw new WeftError('dossier-nothing-new', 'There are no unread turns or pending facts for this topic.', 400);
  const current = request.mode === 'rebuild' ? null : prepared.current;
  let answer: DossierAnswer;
  try {
    // Structured output: the provider is asked for the answer's JSON schema (OpenAI json_schema, a compatible
    // server's json_object, Anthropic's JSON tool) and the AI SDK validates the object with the zod schema.
    const written = await generateText({
      model: model.model,
      system: plan.outgoing.system,
      prompt: plan.outgoing.prompt,
      output: Output.object({ schema: DossierAnswerSchema, name: 'dossier', description: DOSSIER_OUTPUT }),
      // Not strict: a sentence's "id" is optional (kept only for a sentence the update keeps), which OpenAI's
      // strict mode cannot express; the zod validation after is what the answer must pass.
      providerOptions: { openai: { strictJsonSchema: false } },
      maxRetries: 0,
      temperature: 0,
      abortSignal: AbortSignal.timeout(DOSSIER_TIMEOUT_MS),
    });
    answer = written.output;
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error))
      throw new WeftError(
        'dossier-answer-invalid',
        'The model did not answer with the four sections as the dossier’s JSON; nothing was written.',
        502,
      );
    const failure = mapProviderError(error, context.secrets ?? []);
    throw new WeftError(
      `dossier-model-${failure.code}`,
      `The model did not write the dossier: ${failure.message}`,
      502,
    );
  }
  // The citation check: a sentence citing a key the model was not shown is dropped and counted.
  const checked = dossierFromAnswer(answer, {
    topicId,
    current,
    latestVersion: prepared.current?.version ?? 0,
    shown: shownKeys({ topic: prepared.topic, current, turns, facts: chosen.facts }),
    now: context.now(),
    newId: context.newId,
  });
  // A sentence the person struck stays out even when the model writes the same words again (issue 29.2).
  const unstruck = withoutStruck(checked.dossier, sentenceStruck(context.sources));
  // With review on, only what the dossier already said is written; the new sentences wait in the Inbox.
  const gated =
    context.autoAcceptSentences === false
      ? splitNewSentences(unstruck, prepared.current)
      : { dossier: unstruck, fresh: [] };
  const next = { ...checked, dossier: gated.dossier };
  const written = context.store.writeVersion({
    topicId,
    mode: request.mode,
    modelId: model.id,
    baseVersion: prepared.current?.version ?? 0,
    dossier: next.dossier,
    dropped: next.dropped,
    turnsRead: turns.map((turn) => turn.turnKey),
    factsRead: chosen.facts.map((fact) => fact.id),
  });
  // Filed after the version is written: a run refused (`dossier-changed`) leaves nothing waiting.
  return { ...written, proposed: context.store.sentenceProposals().propose(topicId, gated.fresh) };
}
