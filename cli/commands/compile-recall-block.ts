import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { QuestionNode, RecallPlanResponse } from '../../protocol/index.ts';
import { CanvasStore, canvasesDirectory, readPutAsides, type SettingsStore } from '../../runtime/fs/index.ts';
import { nodeHashPort } from '../../runtime/hash/index.ts';
import { dossierDatabasePath, openDossierStore } from '../../runtime/dossiers/index.ts';
import { memoryDirectory } from '../../runtime/memory/index.ts';
import { DecisionJudge, type ModelRegistry } from '../../runtime/models/index.ts';
import { NO_DOSSIERS, planRecallFromIndex, readRecallSources, storedDossiers } from '../../runtime/recall/index.ts';
import { TopicStore } from '../../runtime/topics/index.ts';
import type { Graph } from '../../src/core/index.ts';
import { recallRequestFor } from '../../src/core/recall/index.ts';
import { openFreshIndex } from '../open-why-index.ts';
import type { Terminal } from '../terminal.ts';

export interface CompileRecall {
  /** The recall block an ask of the node carries, or null. */
  block: string | null;
  plan: RecallPlanResponse | null;
  /** Why it is (or is not) sent, for the printed output. */
  reason: string;
}

/**
 * C16: the recall block the app's preview and run put into an ask of `node`, planned by the same runtime function
 * the server's `POST /api/recall/plan` calls, over the same index, canvas records, topics and dossiers under
 * $WEFT_HOME. With a decision model configured it is asked as the app's server asks it (the server keeps its
 * answers; a model that answers otherwise the second time plans another block). A full reach is refused unless
 * `confirmFull` says the person confirmed it.
 */
export async function recallBlockFor(
  io: Terminal,
  home: string,
  graph: Graph,
  node: QuestionNode,
  model: object,
  services: { settings: SettingsStore; registry: ModelRegistry; confirmFull: boolean },
): Promise<CompileRecall> {
  const request = recallRequestFor(graph, node, model);
  if (!request) return { block: null, plan: null, reason: 'off for this node' };
  const index = await openFreshIndex(io);
  const dossierStore = existsSync(dossierDatabasePath(home)) ? openDossierStore(home, { hash: nodeHashPort }) : null;
  try {
    const judgeModelId = (await services.settings.read()).judgeModelId ?? null;
    const judge = new DecisionJudge({
      judgeModel: async () =>
        judgeModelId ? { id: judgeModelId, model: await services.registry.resolve(judgeModelId) } : null,
    });
    const sources = await readRecallSources({
      database: index.database,
      canvases: new CanvasStore({ directory: canvasesDirectory(home) }),
      topics: new TopicStore({
        directory: memoryDirectory(home),
        now: Date.now,
        newId: randomUUID,
        hash: nodeHashPort,
      }),
      dossiers: (topics) => (dossierStore ? storedDossiers(dossierStore, topics) : NO_DOSSIERS),
      judgeModelId,
      models: () => services.registry.listModels(),
      decide: (decision) => judge.decide(decision),
      hash: nodeHashPort,
      putAsides: readPutAsides(home),
    });
    const plan = await planRecallFromIndex(sources, {
      ...request,
      ...(services.confirmFull ? { confirmFull: true } : {}),
    });
    const scope = plan.scope === null ? 'global' : plan.scope;
    return plan.block === null
      ? { block: null, plan, reason: `nothing recalled (scope ${scope})` }
      : {
          block: plan.block,
          plan,
          reason: `${plan.items.length} item${plan.items.length === 1 ? '' : 's'}, ${plan.omitted.length} left out, scope ${scope}, block ${plan.blockHash}`,
        };
  } finally {
    dossierStore?.close();
    index.close();
  }
}
