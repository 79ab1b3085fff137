import { memo, useCallback, useMemo } from 'react';
import { countRender, useWeft, useWeftStore } from '../kit/index.ts';
import { DeclaredTools } from './DeclaredTools.tsx';
import {
  buildContextBundle,
  REQUEST_TOKEN_PARTS,
  type CompiledSource,
  type Graph,
  type RequestTokenPart,
  memoryReadingOf,
  plural,
} from '../../core/index.ts';
import { downloadText, safeFileName } from './download.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { canvasBridge } from '../commands/index.ts';
import { nodeTitle, memoryClient } from '../store/index.ts';
import { useWillSend, type WillSend } from './use-will-send.ts';
import { RequestHash } from './RequestHash.tsx';
import { memoryReadingLine } from './memory-reading-line.ts';
import { hashRequest } from './request-hasher.ts';
import { PreviewMessageList, type PreviewRow } from './PreviewMessageList.tsx';
import { formatTokens, tokenizerEncodingFor, type TokenCounter } from '../tokens/index.ts';

const LAYER_LABEL: Record<CompiledSource['layer'], string> = {
  role: 'Role',
  materials: 'Material',
  references: 'Reference',
  chain: 'Chain',
  question: 'Question',
};

const PART_LABEL: Record<RequestTokenPart | 'total', string> = {
  ...LAYER_LABEL,
  memory: '[Memory]',
  recall: 'Recall',
  tools: 'Tools',
  total: 'Total',
};

const ALWAYS_SHOWN = new Set<RequestTokenPart>(['materials', 'references', 'chain', 'question']);

/** Names the counter behind every number of the preview, so a person knows what ≈ means. */
export function estimatorWords(counter: Pick<TokenCounter, 'exact'>, modelId: string): string {
  const encoding = tokenizerEncodingFor(modelId);
  return counter.exact && encoding
    ? `Tokens counted with ${modelId}'s own tokenizer (${encoding}).`
    : `Tokens estimated (≈) at about four characters per token: ${
        encoding ? `${modelId}'s tokenizer is still loading` : `${modelId}'s tokenizer is not public`
      }. Images are not counted.`;
}

/**
 * The will-send preview: exactly the request `ask` will dispatch, with its sources and hash (C5, C9). Memoised on
 * the node: a keystroke in the question changes only the panel's draft, so the preview re-renders when the edit is
 * committed, not per key.
 */
export const WillSendPreview = memo(function WillSendPreview({ node }: { node: QuestionNode }) {
  countRender('will-send-preview');
  const store = useWeftStore();
  const highlighted = useWeft((state) => state.highlightedNodeId);
  const { willSend: planned, recall, memoryLoaded, graph } = useWillSend(node);
  // Labels, texts and token counts once per plan: the list's rows stay the same objects across renders.
  const rows = useMemo(() => (planned && graph ? previewRows(planned, graph, node.id) : []), [planned, graph, node.id]);
  const jump = useCallback(
    (nodeId: string) => {
      store.getState().highlightNode(nodeId);
      store.getState().setSelection([nodeId]);
      canvasBridge.centerOn(nodeId);
    },
    [store],
  );
  const exclude = useCallback(
    (partId: string) => store.getState().apply({ type: 'exclude-part', nodeId: node.id, partId }),
    [store, node.id],
  );
  if (!planned || !graph) return null;
  const { compiled, built, counter, tokens } = planned;
  const apply = store.getState().apply;
  // The parts this request carries: the four compiled layers always, the others when they are sent.
  const boxes = REQUEST_TOKEN_PARTS.filter(
    (part) => ALWAYS_SHOWN.has(part) || tokens[part] > 0 || (part === 'memory' && planned.block),
  );
  return (
    <div className="preview" data-testid="preview">
      <div className="token-layers" data-testid="token-layers" data-exact={counter.exact ? 'true' : 'false'}>
        {[...boxes, 'total' as const].map((part) => (
          <div className={`token-layer${part === 'total' ? ' total' : ''}`} key={part} data-testid={`tokens-${part}`}>
            <div className="label">{PART_LABEL[part]}</div>
            <div className="value" data-tokens={tokens[part]}>
              {formatTokens(tokens[part], counter)}
            </div>
          </div>
        ))}
      </div>
      <div className="hint" data-testid="token-estimator">
        {estimatorWords(counter, planned.model.id)}
      </div>
      <PreviewMessageList rows={rows} highlightedNodeId={highlighted} onJump={jump} onExclude={exclude} />
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
      {recall?.state === 'ready' && recall.standIn && (
        <div className="hint" data-testid="preview-recall-stand-in">
          The recall block shown is the light reach’s plan: the full reach waits for your confirmation, and the ask
          sends the block it plans then (this hash will change).
        </div>
      )}
      {recall?.state === 'ready' && recall.plan.blockHash && (
        <div
          className="hint"
          data-testid="preview-recall-hash"
          title="SHA-256 of the recall block this request carries"
          style={{ overflowWrap: 'anywhere' }}
        >
          Recall block ({plural(recall.plan.items.length, 'item')}) · {recall.plan.blockHash}
        </div>
      )}
      <div className="hint" data-testid="preview-memory-reading">
        {memoryReadingLine(memoryReadingOf(node))}
      </div>
      <RequestHash request={built.request} />
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
            // The request this preview shows and the ask sends (memory, recall, tools): the bundle's hash is its,
            // the one the preview shows (already computed, or under way, since the preview drew this request).
            void hashRequest(built.request).then(
              (requestHash) => {
                const bundle = buildContextBundle(graph, compiled, { ...built, requestHash }, Date.now());
                downloadText(
                  `${safeFileName(nodeTitle(node))}.context.json`,
                  JSON.stringify(bundle, null, 2),
                  'application/json',
                );
              },
              (error: unknown) =>
                store.getState().toast('error', 'bundle-hash', `The bundle was not made: ${String(error)}`),
            );
          }}
        >
          Export context bundle
        </button>
      </div>
    </div>
  );
});

function previewRows(planned: WillSend, graph: Graph, nodeId: string): PreviewRow[] {
  const { compiled, built, counter } = planned;
  return built.request.messages.map((message, index) => {
    const from = built.messageSources[index];
    const late = from?.kind === 'late' ? from.source : null;
    const source = from?.kind === 'compiled' ? compiled.sources[from.index] : undefined;
    const only = message.content.length === 1 ? message.content[0] : undefined;
    // A message of one text part (nearly all) shows that very string: no copy per message on open.
    const text =
      only?.type === 'text'
        ? only.text
        : message.content
            .map((part) => (part.type === 'text' ? part.text : `[image ${part.hash.slice(0, 12)} · ${part.mediaType}]`))
            .join('\n');
    const ownQuestion = source?.nodeId === nodeId && source.layer === 'question';
    return {
      role: message.role,
      layer: source?.layer ?? late ?? 'late',
      className: `layer-${source?.layer ?? 'chain'}`,
      sourceNodeId: source?.nodeId ?? null,
      label: source
        ? `${LAYER_LABEL[source.layer]} · ${nodeTitle(graph.nodes.get(source.nodeId))}`
        : late === 'profile'
          ? 'Memory · profile'
          : late === 'recall'
            ? 'Recall · past turns and dossiers'
            : 'late block',
      tokens: () => formatTokens(counter.count(text), counter),
      text,
      excludablePartId: source && !ownQuestion && source.layer !== 'role' ? source.partId : null,
    };
  });
}
