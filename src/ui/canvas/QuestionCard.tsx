import { memo, useEffect } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { renderMentions } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { ApprovalCards, useAgent } from '../agents/index.ts';
import { AuthoringBadges } from './AuthoringBadges.tsx';
import { PlaqueGradeLine } from './PlaqueGradeLine.tsx';
import { QuestionAuthorBadge } from './QuestionAuthorBadge.tsx';
import { Markdown } from './Markdown.tsx';
import { isReceiptModel, shortModel } from '../store/index.ts';
import type { FlowNodeData } from './flow-elements.ts';
import { useDetailLevel } from './detail-level.ts';
import { formatTokens, tokenCounterFor, useTokenizersVersion } from '../tokens/index.ts';
import { SetAnswerStrip } from './SetAnswerStrip.tsx';

/**
 * The topic is copied from inside the takeaway (C32), so it is marked where it stands rather than repeated in front
 * of it ("Offline receipt: no Offline receipt: no model…"); a topic edited out of its takeaway keeps the chip.
 */
function PlaqueLine({ topic, takeaway }: { topic: string; takeaway: string }) {
  const at = topic ? takeaway.indexOf(topic) : -1;
  if (at < 0)
    return (
      <>
        <span className="plaque-topic-chip">{topic}</span> {takeaway}
      </>
    );
  return (
    <>
      {takeaway.slice(0, at)}
      <span className="plaque-topic-chip">{topic}</span>
      {takeaway.slice(at + topic.length)}
    </>
  );
}

/** A plaque that only restates the question (the offline receipt's) is for map mode; the full card shows the question. */
function saysTheQuestion(takeaway: string, question: string): boolean {
  return question.replace(/\s+/g, ' ').trim().startsWith(takeaway.replace(/…$/, ''));
}

export const QuestionCard = memo(function QuestionCard({ id, selected }: NodeProps & { data: FlowNodeData }) {
  const node = useWeft((state) => state.graph?.nodes.get(id)) as QuestionNode | undefined;
  const stream = useWeft((state) => state.streams[id]);
  const agentText = useAgent((state) => state.live[id]?.text);
  const shownStale = useWeft((state) => state.shown.has(id));
  const dismissed = useWeft((state) => state.stale.has(id) && !state.shown.has(id));
  const searchHit = useWeft((state) => state.searchHits.has(id));
  const apply = useWeft((state) => state.apply);
  const detail = useDetailLevel();
  useTokenizersVersion(); // the answer's count turns exact when its model's tokenizer arrives
  useEffect(markFirstCard, []);
  if (!node) return null;
  const plaque = node.versions.find((version) => version.id === node.currentVersionId)?.plaque;
  if (detail !== 'full') {
    // Zoomed out: no answer text, no pager, no token count — thousands of cards stay cheap to draw.
    const status = shownStale ? 'stale' : node.versions.length === 0 ? 'unanswered' : 'answered';
    return (
      <div
        className={`card question lod-${detail} status-${status}${node.archived ? ' archived' : ''}${selected ? ' selected' : ''}${searchHit ? ' search-hit' : ''}`}
        data-testid="node-card"
        data-node-id={id}
        data-stale={shownStale ? 'true' : 'false'}
        data-detail={detail}
      >
        <Handle type="target" position={Position.Left} />
        {detail === 'summary' && plaque && (
          // Map mode (C32): the plaque stands in for the card, its text sized in screen pixels (stale: an amber edge).
          <div className="plaque-map" data-testid="plaque-map">
            <div className="plaque-topic">{plaque.topic}</div>
            <div className="plaque-takeaway">{plaque.takeaway}</div>
            <PlaqueGradeLine plaque={plaque} />
          </div>
        )}
        {detail === 'summary' && !plaque && (
          <>
            <div className="card-header">
              <span className="card-kind">Question</span>
              {shownStale && <span className="badge stale">Stale</span>}
              {dismissed && <span className="badge dismissed">Dismissed</span>}
            </div>
            <div className="card-question lod-title">{node.question.trim() || 'Write a question…'}</div>
          </>
        )}
        <Handle type="source" position={Position.Right} />
      </div>
    );
  }
  const index = node.versions.findIndex((version) => version.id === node.currentVersionId);
  const version = index >= 0 ? node.versions[index] : undefined;
  const text = stream ? stream.text : (agentText ?? version?.text ?? '');
  const model = stream ? stream.model : version?.model;
  // A demo or hand-edited answer says who wrote it in its badge; its model id (demo/pre-written) would contradict it.
  const badgeModel = stream || (version?.origin !== 'demo' && version?.origin !== 'manual') ? model : undefined;
  const select = (offset: number) => {
    const next = node.versions[index + offset];
    if (next) apply({ type: 'select-version', nodeId: id, versionId: next.id });
  };
  return (
    <div
      className={`card question${node.archived ? ' archived' : ''}${selected ? ' selected' : ''}${searchHit ? ' search-hit' : ''}`}
      data-testid="node-card"
      data-node-id={id}
      data-stale={shownStale ? 'true' : 'false'}
    >
      <Handle type="target" position={Position.Left} />
      <div className="card-header">
        <span className="card-kind">Question</span>
        {shownStale && (
          <span
            className="badge stale"
            data-testid="badge-stale"
            title="Written against an earlier version of its upstream"
          >
            Stale
          </span>
        )}
        {dismissed && (
          <span
            className="badge dismissed"
            data-testid="badge-dismissed"
            title="A judge ruled the upstream change does not bear on this answer"
          >
            Stale · dismissed by judge
          </span>
        )}
        {node.archived && (
          <span className="badge archived" data-testid="badge-archived">
            Archived
          </span>
        )}
        {node.autoRerun.enabled && (
          <span className="badge auto" title="Regenerates when an ancestor completes">
            Auto-rerun
          </span>
        )}
        <AuthoringBadges node={node} />
        <QuestionAuthorBadge node={node} />
        {version?.origin === 'demo' && !stream && <span className="badge demo">Demo answer</span>}
        {version?.origin === 'manual' && !stream && <span className="badge demo">Edited by you</span>}
        {version?.status === 'failed' && !stream && <span className="badge failed">Failed</span>}
        {version?.status === 'aborted' && !stream && <span className="badge failed">Stopped</span>}
      </div>
      <div className={`card-question${node.question.trim() ? '' : ' empty'}`} data-testid="node-question">
        {renderMentions(node.question).trim() || 'Write a question…'}
      </div>
      {plaque && !stream && !saysTheQuestion(plaque.takeaway, node.question) && (
        <div className="card-plaque" data-testid="card-plaque" title={plaque.reason || undefined}>
          <PlaqueLine topic={plaque.topic} takeaway={plaque.takeaway} />
        </div>
      )}
      {(text || stream) && (
        <div className="card-body" data-testid="node-answer">
          <Markdown text={text} className={stream ? 'clamp streaming-caret' : 'clamp'} />
        </div>
      )}
      <ApprovalCards nodeId={id} />
      <div className="card-footer">
        {node.versions.length > 0 && (
          <span className="pager nodrag" data-testid="version-pager">
            <button disabled={index <= 0 || !!stream} onClick={() => select(-1)} aria-label="Previous version">
              ‹
            </button>
            {index + 1}/{node.versions.length}
            <button
              disabled={index >= node.versions.length - 1 || !!stream}
              onClick={() => select(1)}
              aria-label="Next version"
            >
              ›
            </button>
          </span>
        )}
        {badgeModel && (
          <span className={`badge ${isReceiptModel(badgeModel) ? 'receipt' : 'model'}`} data-testid="model-badge">
            {shortModel(badgeModel)}
          </span>
        )}
        {/* Issue 31: a model set's answers, one chip each. */}
        {!stream && <SetAnswerStrip node={node} />}
        <span className="spacer" />
        {stream ? (
          <span>streaming…</span>
        ) : text ? (
          <span data-testid="answer-tokens">{answerTokens(text, model)} tok</span>
        ) : (
          <span>no answer yet</span>
        )}
      </div>
      <Handle type="source" position={Position.Right} />
    </div>
  );
});

let firstCardMarked = false;
/** For `bench:ui`: when the first card reached the DOM. */
function markFirstCard(): void {
  if (firstCardMarked) return;
  firstCardMarked = true;
  globalThis.performance?.mark?.('weft:first-card');
}

function answerTokens(text: string, model: string | undefined): string {
  const counter = tokenCounterFor(model ?? '');
  return formatTokens(counter.count(text), counter);
}
