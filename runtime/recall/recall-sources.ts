import type { CanvasDocument, ModelInfo, TopicRecord } from '../../protocol/index.ts';
import type { HashPort, PutAsides } from '../../src/core/index.ts';
import type { DossierSource } from '../../src/core/recall/index.ts';
import type { CanvasStore } from '../fs/index.ts';
import type { IndexDatabase } from '../index/index.ts';
import type { RelevanceJudge, RelevanceMemo } from './judge-relevance.ts';
import type { RecallSources } from './plan-from-index.ts';

/** What recall reads, as the server and the CLI each hold it. */
export interface RecallStores {
  database: IndexDatabase;
  canvases: Pick<CanvasStore, 'list' | 'read'>;
  /** The topic table (`TopicStore`). */
  topics: { read(): Promise<{ record: TopicRecord }> };
  /** The dossiers of the topic table read now (`storedDossiers` over the dossier store). */
  dossiers: (topics: TopicRecord) => DossierSource;
  /** The configured decision model, or null (then nothing is judged and nothing leaves the machine). */
  judgeModelId: string | null;
  models: () => Promise<{ models: readonly ModelInfo[] }>;
  decide: RelevanceJudge['decide'];
  hash: HashPort;
  relevanceMemo?: RelevanceMemo;
  /** The tombstones in force now (`readPutAsides`); absent: none. */
  putAsides?: PutAsides;
}

/**
 * C16: the inputs of `planRecallFromIndex` read now — every canvas record (for archived sources and the folders of
 * canvas turns), the topic table, the dossiers and the judge with its price. The server's preview and run and
 * `weft compile` all plan from this, so they plan the same block.
 */
export async function readRecallSources(stores: RecallStores): Promise<RecallSources> {
  const { canvases: summaries } = await stores.canvases.list();
  const canvases: CanvasDocument[] = [];
  for (const summary of summaries) {
    const stored = await stores.canvases.read(summary.id).catch(() => null);
    if (stored) canvases.push(stored.document);
  }
  const topics = (await stores.topics.read()).record;
  const { judgeModelId } = stores;
  const price = judgeModelId
    ? ((await stores.models()).models.find((model) => model.id === judgeModelId)?.pricePerMTokIn ?? null)
    : null;
  return {
    database: stores.database,
    canvases,
    topics,
    dossiers: stores.dossiers(topics),
    judge: judgeModelId
      ? { decide: (request) => stores.decide(request), modelId: judgeModelId, pricePerMTokIn: price }
      : null,
    hash: stores.hash,
    ...(stores.putAsides ? { putAsides: stores.putAsides } : {}),
    ...(stores.relevanceMemo ? { relevanceMemo: stores.relevanceMemo } : {}),
  };
}
