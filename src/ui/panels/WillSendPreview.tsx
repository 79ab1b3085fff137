import { Fragment, useMemo } from 'react';
import { DeclaredTools } from './DeclaredTools.tsx';
import { useStore } from 'zustand';
import { STALE_MARK, buildContextBundle, type CompiledSource } from '../../core/index.ts';
import { downloadText, safeFileName } from './download.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeft, useWeftStore } from '../app/store-context.tsx';
import { canvasBridge } from '../commands/canvas-bridge.ts';
import { nodeTitle } from '../canvas/node-labels.ts';
import { memoryClient } from '../memory/memory-client.ts';
import { plannedRequest } from '../store/planned-request.ts';
import {
  APPROXIMATE_COUNTER,
  formatTokens,
  tokenCounterFor,
  useTokenizersVersion,
  type TokenCounter,
} from '../tokens/index.ts';

const LAYER_LABEL: Record<CompiledSource['layer'], string> = {
  role: 'Role',
  materials: 'Material',
  references: 'Reference',
  chain: 'Chain',
  question: 'Question',
};

function withStaleMark(text: string) {
  const parts = text.split(STALE_MARK);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <mark data-testid="stale-mark">{STALE_MARK}</mark>}
      {part}
    </Fragment>
  ));
}

/** The will-send preview: exactly the request `ask` will dispatch, with its sources and hash (C5, C9). */
export function WillSendPreview({ node }: { node: QuestionNode }) {
  const store = useWeftStore();
  const graph = useWeft((state) => state.graph);
  const shown = useWeft((state) => state.shown);
  const models = useWeft((state) => state.models);
  const defaultModelId = useWeft((state) => state.defaultModelId);
  const highlighted = useWeft((state) => state.highlightedNodeId);
  const tokenizers = useTokenizersVersion();
  // The profile as the dispatch will read it (C14): a change re-plans the preview.
  const memoryLoaded = useStore(memoryClient.view, (view) => view.loaded);
  const planned = useMemo(() => {
    // The counter of the node's model, as plannedRequest picks it; a tokenizer arriving re-runs this.
    let counter: TokenCounter = APPROXIMATE_COUNTER;
    const block = graph && memoryLoaded ? memoryClient.blockFor(graph.canvas.id, 'chat') : null;
    const result = plannedRequest(
      { graph, shown, models, defaultModelId },
      node.id,
      'chat',
      (modelId) => {
        counter = tokenCounterFor(modelId);
        return counter.count;
      },
      block,
    );
    return result && { ...result, counter, tokenizers, block };
  }, [graph, shown, models, defaultModelId, node.id, tokenizers, memoryLoaded]);
  if (!planned || !graph) return null;
  const { compiled, built, counter } = planned;
  const apply = store.getState().apply;
  const jump = (nodeId: string) => {
    store.getState().highlightNode(nodeId);
    store.getState().setSelection([nodeId]);
    canvasBridge.centerOn(nodeId);
  };
  // The [Memory] block rides the request too, so the total counts it.
  const profileTokens = planned.block ? counter.count(planned.block) : 0;
  const tokens = { ...compiled.tokens, total: compiled.tokens.total + profileTokens };
  return (
    <div className="preview" data-testid="preview">
      <div
        className="token-layers"
        data-testid="token-layers"
        data-exact={counter.exact ? 'true' : 'false'}
        title={
          counter.exact
            ? `Counted with ${planned.model.id}'s own tokenizer`
            : `≈ estimated at about four characters per token: ${planned.model.id}'s tokenizer is not public`
        }
      >
        {(['materials', 'references', 'chain', 'question', 'total'] as const).map((layer) => (
          <div className="token-layer" key={layer} data-testid={`tokens-${layer}`}>
            <div className="label">{layer === 'total' ? 'Total' : LAYER_LABEL[layer]}</div>
            <div className="value">{formatTokens(tokens[layer], counter)}</div>
          </div>
        ))}
      </div>
      {built.request.messages.map((message, index) => {
        const from = built.messageSources[index];
        const late = from?.kind === 'late' ? from.source : null;
        const source = from?.kind === 'compiled' ? compiled.sources[from.index] : undefined;
        const text = message.content
          .map((part) => (part.type === 'text' ? part.text : `[image ${part.hash.slice(0, 12)} · ${part.mediaType}]`))
          .join('\n');
        const ownQuestion = source?.nodeId === node.id && source.layer === 'question';
        return (
          <div
            key={index}
            className={`preview-message layer-${source?.layer ?? 'chain'}${source && highlighted === source.nodeId ? ' highlight' : ''}`}
            data-testid="preview-message"
            data-source-node={source?.nodeId ?? ''}
            data-layer={source?.layer ?? late ?? 'late'}
            onClick={() => source && jump(source.nodeId)}
          >
            <div className="preview-head">
              <span className="role">{message.role}</span>
              <span className="source-label">
                ·{' '}
                {source
                  ? `${LAYER_LABEL[source.layer]} · ${nodeTitle(graph.nodes.get(source.nodeId))}`
                  : late === 'profile'
                    ? 'Memory · profile'
                    : 'late block'}
              </span>
              <span className="spacer" />
              <span>{formatTokens(counter.count(text), counter)} tok</span>
              {source && !ownQuestion && source.layer !== 'role' && (
                <button
                  className="button small ghost"
                  data-testid="exclude-part"
                  title="Leave this part out of this node's request"
                  onClick={(event) => {
                    event.stopPropagation();
                    apply({ type: 'exclude-part', nodeId: node.id, partId: source.partId });
                  }}
                >
                  Exclude
                </button>
              )}
            </div>
            <div className="preview-text">{withStaleMark(text)}</div>
          </div>
        );
      })}
      {node.excludedParts.length > 0 && (
        <div className="section" style={{ marginTop: 6 }}>
          <div className="section-title">Excluded from this request</div>
          {node.excludedParts.map((partId) => (
            <div key={partId} className="preview-message excluded" data-testid="excluded-part">
              <div className="preview-head">
                <span>
                  {partId.startsWith('attachment:')
                    ? `Image ${partId.slice(11, 23)}`
                    : nodeTitle(graph.nodes.get(partId.split(':')[0]!))}
                </span>
                <span className="spacer" />
                <button
                  className="button small"
                  data-testid="include-part"
                  onClick={() => apply({ type: 'include-part', nodeId: node.id, partId })}
                >
                  Include again
                </button>
              </div>
            </div>
          ))}
        </div>
      )}
      <DeclaredTools declarations={built.request.toolDeclarations ?? []} />
      <div className="section-title" style={{ marginTop: 8 }}>
        Request hash ({built.request.messages.length} messages · {planned.model.id})
      </div>
      <div className="hash-line" data-testid="preview-hash">
        {built.requestHash}
      </div>
      {memoryLoaded && (
        <label className="memory-switch" data-testid="memory-switch">
          <input
            type="checkbox"
            checked={!memoryLoaded.offCanvases.includes(graph.canvas.id)}
            onChange={(event) => {
              const enabled = event.target.checked;
              void memoryClient.api
                .setCanvas(graph.canvas.id, enabled)
                .then(() => memoryClient.refresh())
                .catch((error: unknown) =>
                  store.getState().toast('error', 'memory-switch', `The switch was not saved: ${String(error)}`),
                );
            }}
          />{' '}
          Send the [Memory] profile block with this canvas's requests
        </label>
      )}
      <div className="button-row" style={{ marginTop: 8 }}>
        <button
          className="button small"
          data-testid="export-bundle"
          title="The compiled context with its sources and hash, portable to other tools"
          onClick={() => {
            const bundle = buildContextBundle(graph, compiled, {
              model: planned.model.id,
              createdAt: Date.now(),
              images: planned.model.takesImages,
              memoryBlock: planned.block,
            });
            downloadText(
              `${safeFileName(nodeTitle(node))}.context.json`,
              JSON.stringify(bundle, null, 2),
              'application/json',
            );
          }}
        >
          Export context bundle
        </button>
      </div>
    </div>
  );
}
