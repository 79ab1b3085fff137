import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type { QuestionNode, RecallPlanRequest } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
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
  useEffect(() => {
    if (request) recallClient.entryFor(request);
  }, [key, request]);
  return { request, entry };
}
