import { memo } from 'react';
import { STALE_MARK, plural } from '../../core/index.ts';
import type { AskCanvasPart } from '../../core/ask-canvas/index.ts';
import type { Graph } from '../../core/index.ts';
import { nodeTitle } from '../store/index.ts';
import type { PlannedAsk } from './plan-ask.ts';

const KIND_LABEL: Record<AskCanvasPart['kind'], string> = {
  instructions: 'Instructions',
  outline: 'Outline',
  focus: 'Focus',
  materials: 'Material',
  references: 'Reference',
  chain: 'Chain',
  'earlier-turn': 'Earlier turn',
  question: 'Question',
};

function marked(text: string) {
  const parts = text.split(STALE_MARK);
  return parts.map((part, index) => (
    <span key={index}>
      {index > 0 && <mark data-testid="stale-mark">{STALE_MARK}</mark>}
      {part}
    </span>
  ));
}

/** What the ask will send, message by message with its source, and the request hash the server must match. */
export const AskCanvasPreview = memo(function AskCanvasPreview({
  planned,
  graph,
}: {
  planned: PlannedAsk;
  graph: Graph;
}) {
  const { plan } = planned;
  return (
    <div className="ask-preview" data-testid="ask-canvas-preview">
      <div className="ask-preview-head">
        <span>
          {plural(plan.request.messages.length, 'message')} to {planned.model.id} · outline {plan.layers.outline.length}{' '}
          · chain {plan.layers.chain.length} · materials {plan.layers.materials.length} · references{' '}
          {plan.layers.references.length} · earlier turns {plan.window}
        </span>
        <code className="ask-hash" data-testid="ask-canvas-preview-hash" title="SHA-256 of the canonical request">
          {plan.requestHash}
        </code>
      </div>
      {plan.request.messages.map((message, index) => {
        const part = plan.parts[index]!;
        const source = part.nodeId ? ` · ${nodeTitle(graph.nodes.get(part.nodeId))}` : '';
        return (
          <div
            key={index}
            className={`preview-message layer-${part.kind}`}
            data-testid="ask-canvas-preview-message"
            data-kind={part.kind}
            data-source-node={part.nodeId ?? ''}
          >
            <div className="preview-head">
              <span className="role">{message.role}</span>
              <span className="source-label">
                · {KIND_LABEL[part.kind]}
                {source}
              </span>
            </div>
            <div className="preview-text">
              {message.content.map((content, position) =>
                content.type === 'text' ? (
                  <span key={position}>{marked(content.text)}</span>
                ) : (
                  <span key={position}>[image {content.hash.slice(0, 12)}…]</span>
                ),
              )}
            </div>
          </div>
        );
      })}
    </div>
  );
});
