import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type { QuestionNode, RecallPlanRequest } from '../../../protocol/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { modelFor, recallCacheKey, recallClient, type RecallEntry } from '../store/index.ts';
import { recallRequestFor } from '../../core/recall/index.ts';

/** The node's recall request and its plan as the server answered it (fetched once per distinct request). */
export function useRecallPlan(node: QuestionNode): { request: RecallPlanRequest | null; entry: RecallEntry | null } {
  const graph = useWeft((state) => state.graph);
  const models = useWeft((state) => state.models);
  const defaultModelId = useWeft((state) => state.defaultModelId);
  const request = useMemo(
    () => (graph ? recallRequestFor(graph, node, modelFor({ models, defaultModelId }, node.model)) : null),
    [graph, node, models, defaultModelId],
  );
  const key = request ? recallCacheKey(request) : null;
  const entry = useStore(recallClient.view, (view) => (key ? (view.plans[key] ?? null) : null));
  // What recall reads changed (RecallSync): ask again, so the preview shows the block the ask will send.
  const epoch = useStore(recallClient.view, (view) => view.epoch);
  const store = useWeftStore();
  useEffect(() => {
    if (!request) return;
    let current = true;
    // The server reads recall's scope (the working directory, the every-project switch) from the saved canvas:
    // save first (nothing to do when nothing is pending), so what it reads is what this request says.
    void store
      .getState()
      .flush()
      .catch(() => undefined)
      .then(() => {
        if (current) recallClient.refresh(request);
      });
    return () => {
      current = false;
    };
  }, [key, request, store, epoch]);
  return { request, entry };
}
