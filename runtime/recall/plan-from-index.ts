import type {
  CanvasDocument,
  RecallPlanRequest,
  RecallPlanResponse,
  RecallReachEstimate,
  TopicRecord,
} from '../../protocol/index.ts';
import {
  ancestors,
  descendants,
  estimateTokensByScript,
  graphFromDocument,
  isPutAside,
  type HashPort,
  type PutAsides,
} from '../../src/core/index.ts';
import {
  eligibleCandidates,
  planRecall,
  reachCount,
  reachRequests,
  recallTerms,
  type DossierSource,
  type RankedCandidate,
} from '../../src/core/recall/index.ts';

import { matchTopicsByName } from '../../src/core/topics/index.ts';
import { indexCandidates } from './index-candidates.ts';
import { indexVocabulary } from './index-vocabulary.ts';
import { judgeRelevance, relevancePrompt, type RelevanceMemo, type RelevanceJudge } from './judge-relevance.ts';
import { turnKeySources, type IndexDatabase } from '../index/index.ts';
import { WeftError } from '../../protocol/index.ts';

/** A decision request's usual time; the judge gives up after six seconds. */
export const SECONDS_PER_JUDGE_REQUEST = 3;

export interface RecallSources {
  database: IndexDatabase;
  /** Every canvas record (for archived and deleted sources). */
  canvases: readonly CanvasDocument[];
  topics: TopicRecord;
  dossiers: DossierSource;
  /** The configured decision model, or null (then nothing is judged and nothing leaves the machine). */
  judge: { decide: RelevanceJudge['decide']; modelId: string; pricePerMTokIn: number | null } | null;
  hash?: HashPort;
  /** The tombstones in force (issue 29.2): turns and dossier sentences put aside are left out as `put-aside`. */
  putAsides?: PutAsides;
  /** Remembers the judge's relevance so the preview and the run plan the same block (the server keeps one). */
  relevanceMemo?: RelevanceMemo;
}

/** The question's topics: named in it (whole words), or labelled on one of the node's own versions. */
function questionTopics(request: RecallPlanRequest, topics: TopicRecord): string[] {
  const named = new Set(matchTopicsByName(request.question, topics.topics));
  if (request.nodeId) {
    const prefix = `canvas:${request.canvasId}#${request.nodeId}@`;
    for (const label of topics.labels)
      if (label.turnKey.startsWith(prefix)) for (const topicId of label.topicIds) named.add(topicId);
  }
  return topics.topics.filter((topic) => named.has(topic.id)).map((topic) => topic.id);
}

/** A label's turn key as the index keys the turn: a canvas turn's `@<version>` is one row (the node's). */
function indexKey(labelKey: string): string {
  return /^canvas:/.test(labelKey) ? labelKey.replace(/@[^#@]+$/, '') : labelKey;
}

/** The turns labelled with any of `topicIds`, as index keys, in the table's order. */
function topicalKeys(topicIds: readonly string[], topics: TopicRecord): string[] {
  const wanted = new Set(topicIds);
  const keys = new Set<string>();
  for (const label of topics.labels) if (label.topicIds.some((id) => wanted.has(id))) keys.add(indexKey(label.turnKey));
  return [...keys];
}

/**
 * Keys of the asked node, everything upstream of it on the active canvas (already in the ask as context) and
 * everything downstream of it (built on the node's current answer: recalled into its re-ask, they would loop that
 * answer back in as evidence), or undefined when the node is not named or not on a stored canvas (then none of the
 * canvas's turns are recalled).
 */
function chainKeys(request: RecallPlanRequest, canvases: readonly CanvasDocument[]): Set<string> | undefined {
  const document = canvases.find((candidate) => candidate.canvas.id === request.canvasId);
  if (!request.nodeId || !document) return undefined;
  const graph = graphFromDocument(document);
  if (!graph.nodes.has(request.nodeId)) return undefined;
  const ids = [request.nodeId, ...ancestors(graph, request.nodeId, 'all'), ...descendants(graph, [request.nodeId])];
  return new Set(ids.map((id) => `canvas:${request.canvasId}#${id}`));
}

function estimate(
  request: RecallPlanRequest,
  reads: readonly RankedCandidate[],
  judge: RecallSources['judge'],
): RecallReachEstimate {
  const requests = reachRequests(reads.length);
  let tokens = 0;
  for (let start = 0; start < reads.length; start += 40)
    tokens += estimateTokensByScript(relevancePrompt(request.question, reads.slice(start, start + 40)).prompt);
  return {
    reach: request.setting.reach,
    candidates: reads.length,
    requests,
    seconds: requests * SECONDS_PER_JUDGE_REQUEST,
    price: judge && judge.pricePerMTokIn !== null ? (tokens * judge.pricePerMTokIn) / 1_000_000 : null,
    judgeModelId: judge?.modelId ?? null,
  };
}

/**
 * C16 on the why index: terms (typo-corrected against the index's words), candidates, the question's dossiers,
 * the judge's relevance at the node's reach, then the core's plan. `dryRun` stops before the judge and returns
 * the estimate only (what a full reach asks the person to confirm). A full reach without `confirmFull` is refused.
 */
export async function planRecallFromIndex(
  sources: RecallSources,
  request: RecallPlanRequest,
  options: { dryRun?: boolean } = {},
): Promise<RecallPlanResponse> {
  const { setting } = request;
  const vocabulary = indexVocabulary(sources.database, {
    activeCanvasId: request.canvasId,
    ...(request.nodeId ? { activeNodeKey: `canvas:${request.canvasId}#${request.nodeId}` } : {}),
  });
  const { terms } = recallTerms(request.question, vocabulary);
  const project = request.workingDirectory;
  const topicIds = questionTopics(request, sources.topics);
  const candidates = indexCandidates(sources.database, {
    terms,
    project,
    global: setting.global,
    frequency: (term) => vocabulary.frequency(term),
    canvasId: request.canvasId,
    topicalKeys: topicalKeys(topicIds, sources.topics),
  });
  const putAsides = sources.putAsides ?? new Set<string>();
  const cited = turnKeySources(sources.database, sources.canvases, putAsides, sources.hash);
  const chain = chainKeys(request, sources.canvases);
  const scope = {
    canvasId: request.canvasId,
    ...(chain ? { chain } : {}),
    project,
    global: setting.global,
    struck: setting.struck,
    archived: cited.gone,
    putAside: cited.putAside,
    putAsideSentence: (text: string) => isPutAside(putAsides, 'dossier-sentence', text, sources.hash),
    // #29.4: no turn from after the node's "as of" date is read (by the judge either) or recalled.
    asOf: request.memoryReading?.asOf ?? null,
  };
  const ranked = eligibleCandidates({ ...scope, terms, candidates });
  const { eligible } = ranked;
  const reads = eligible.slice(0, reachCount(setting.reach, eligible.length, sources.judge !== null));
  const reach = estimate(request, reads, sources.judge);
  if (!options.dryRun && setting.reach === 'full' && request.confirmFull !== true)
    throw new WeftError(
      'recall-full-unconfirmed',
      `A full reach has the decision model read ${reads.length} excerpts (${reach.requests} requests); confirm it first.`,
      428,
    );
  const relevance =
    !options.dryRun && sources.judge && reads.length > 0
      ? await (sources.relevanceMemo
          ? sources.relevanceMemo.relevance(sources.judge, request.question, reads)
          : judgeRelevance(sources.judge, request.question, reads))
      : undefined;
  const dossiers = sources.dossiers.dossiersFor(topicIds, request.memoryReading?.asOf ?? null);
  const plan = planRecall({
    ...scope,
    question: request.question,
    terms,
    candidates,
    dossiers,
    citedFolder: cited.folder,
    citedKnownAs: cited.knownAs,
    includeInferred: request.memoryReading?.includeInferred === true,
    ceiling: setting.ceiling,
    contextWindow: request.contextWindow,
    estimateTokens: estimateTokensByScript,
    // The judge's relevance reorders the ranking; without it the ranking above is the plan's.
    ...(relevance ? { relevance } : { ranked }),
    ...(sources.hash ? { hash: sources.hash } : {}),
  });
  return { ...plan, scope: setting.global ? null : project, reach };
}

/** A source with no dossiers (the benchmark measures the excerpt path alone). */
export const NO_DOSSIERS: DossierSource = { dossiersFor: () => [] };
