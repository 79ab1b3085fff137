import { useCallback, useMemo, useRef } from 'react';
import { AskSeveral } from './AskSeveral.tsx';
import { SetCompare } from './SetCompare.tsx';
import { AgentLaneSection, AgentModelOptions, AgentWillSendFor, useAgent } from '../agents/index.ts';
import {
  activeDismissal,
  diffUpstreamParts,
  recordedUpstreamParts,
  upstreamParts,
  formatWhen,
} from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeft, useWeftStore, countRender } from '../kit/index.ts';
import { Markdown } from '../canvas/index.ts';
import { agentModel, isReceiptModel, nodeTitle, shortModel } from '../store/index.ts';
import { AnswerTools } from './AnswerTools.tsx';
import { QuestionField } from './QuestionField.tsx';
import { WillSendPreview } from './WillSendPreview.tsx';
import { WillSendSummary } from './WillSendSummary.tsx';
import { FanOutSection } from './FanOutSection.tsx';
import { HighlightSection } from './HighlightSection.tsx';
import { PassageSection } from './PassageSection.tsx';
import { PlaqueSection } from './PlaqueSection.tsx';
import { RoleSection } from './RoleSection.tsx';
import { ToolCallsSection } from './ToolCallsSection.tsx';
import { ToolsSection } from './ToolsSection.tsx';
import { ChecksSection } from './ChecksSection.tsx';
import { RecallSection } from './RecallSection.tsx';
import { MemoryReadingSection } from './MemoryReadingSection.tsx';
import { SelectableAnswer } from './SelectableAnswer.tsx';

function StaleSection({ node }: { node: QuestionNode }) {
  const store = useWeftStore();
  const graph = useWeft((state) => state.graph);
  const shown = useWeft((state) => state.shown.has(node.id));
  const stale = useWeft((state) => state.stale.has(node.id));
  const questionEdited = useWeft((state) => state.questionEdited.has(node.id));
  const fingerprint = useWeft((state) => state.fingerprints.get(node.id));
  const version = node.versions.find((candidate) => candidate.id === node.currentVersionId);
  const diff = useMemo(
    () =>
      graph && version && stale
        ? diffUpstreamParts(recordedUpstreamParts(graph, version).parts, upstreamParts(graph, node.id))
        : null,
    [graph, version, stale, node.id],
  );
  if (!graph || !stale || !diff) return null;
  const dismissal = shown ? null : activeDismissal(graph, node.id, fingerprint);
  return (
    <div className="section" data-testid="stale-section">
      <div className="section-title">{shown ? 'Stale: what changed' : 'Stale, dismissed by the judge'}</div>
      {questionEdited && version && (
        <div className="hint" style={{ marginBottom: 6 }} data-testid="question-edited">
          The question was edited. This answer was written for: “{version.question.slice(0, 120)}
          {version.question.length > 120 ? '…' : ''}”
        </div>
      )}
      {dismissal && (
        <div className="hint" style={{ marginBottom: 6 }} data-testid="dismissal">
          Judge: {Math.round(dismissal.probability * 100)}% that the change bears on this answer. {dismissal.reason}{' '}
          <button
            className="button small"
            onClick={() =>
              store.getState().apply({
                type: 'overrule-dismissal',
                nodeId: node.id,
                fingerprint: dismissal.fingerprint,
                overruled: true,
              })
            }
          >
            Overrule
          </button>
        </div>
      )}
      <ul className="changed-list">
        {diff.changed.map((entry) => (
          <li key={entry.nodeId}>Changed: {nodeTitle(graph.nodes.get(entry.nodeId))}</li>
        ))}
        {diff.added.map((part) => (
          <li key={'a' + part.nodeId}>Added: {nodeTitle(graph.nodes.get(part.nodeId))}</li>
        ))}
        {diff.removed.map((part) => (
          <li key={'r' + part.nodeId}>
            Removed or archived:{' '}
            {graph.nodes.get(part.nodeId) ? nodeTitle(graph.nodes.get(part.nodeId)) : part.opening.slice(0, 60)}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function QuestionPanel({ node }: { node: QuestionNode }) {
  const store = useWeftStore();
  const stream = useWeft((state) => state.streams[node.id]);
  const agentRunning = useAgent((state) => state.live[node.id] !== undefined);
  const models = useWeft((state) => state.models);
  const defaultModelId = useWeft((state) => state.defaultModelId);
  const previewOpen = useWeft((state) => state.previewOpen);
  countRender('question-panel');
  const state = store.getState();
  const version = node.versions.find((candidate) => candidate.id === node.currentVersionId);
  const willSendSection = useRef<HTMLDivElement>(null);
  // The summary beside Ask opens the whole preview and brings it into view (it sits at the panel's end).
  const openPreview = useCallback(() => {
    if (!store.getState().previewOpen) store.getState().togglePreview();
    requestAnimationFrame(() => willSendSection.current?.scrollIntoView({ block: 'start', behavior: 'smooth' }));
  }, [store]);
  return (
    <>
      <PassageSection node={node} />
      <div className="section">
        <QuestionField
          node={node}
          running={Boolean(stream) || agentRunning}
          summary={agentModel(node.model) ? null : <WillSendSummary node={node} onOpen={openPreview} />}
        />
        <label className="model-row">
          <span>Model</span>
          <select
            className="select"
            data-testid="model-picker"
            value={node.model ?? ''}
            onChange={(event) =>
              state.apply({ type: 'edit-node', nodeId: node.id, patch: { model: event.target.value || null } })
            }
          >
            <option value="">Default ({shortModel(defaultModelId)})</option>
            {models.map((model) => (
              <option key={model.id} value={model.id}>
                {model.label}
              </option>
            ))}
            <AgentModelOptions />
          </select>
        </label>
        <div className="button-row" style={{ marginTop: 10 }}>
          <label className="switch">
            <input
              type="checkbox"
              data-testid="auto-rerun"
              checked={node.autoRerun.enabled}
              onChange={(event) =>
                state.apply({ type: 'set-auto-rerun', nodeId: node.id, enabled: event.target.checked })
              }
            />
            Auto-rerun when an ancestor completes
          </label>
          {/* Issue 31: the same question to several models (the model row is a label: no button inside it). */}
          {!agentModel(node.model) && <AskSeveral node={node} />}
          <SetCompare node={node} />
        </div>
        <FanOutSection node={node} />
      </div>

      <AgentLaneSection node={node} />
      <RoleSection node={node} />
      {!agentModel(node.model) && <ToolsSection node={node} />}
      {!agentModel(node.model) && <RecallSection node={node} />}
      {!agentModel(node.model) && <MemoryReadingSection node={node} />}

      <StaleSection node={node} />

      {(stream || version) && (
        <div className="section">
          <div className="section-title">
            Answer
            {version?.origin === 'demo' && !stream && <span className="badge demo">Demo answer</span>}
            {version?.origin === 'manual' && !stream && <span className="badge demo">Edited by you</span>}
            {/* A demo or hand-edited answer names who wrote it above; its model id (demo/pre-written) says nothing. */}
            {(stream?.model ??
              (version?.origin === 'demo' || version?.origin === 'manual' ? null : version?.model)) && (
              <span className={`badge ${isReceiptModel(stream?.model ?? version!.model) ? 'receipt' : 'model'}`}>
                {shortModel(stream?.model ?? version!.model)}
              </span>
            )}
          </div>
          <SelectableAnswer node={node} version={stream ? undefined : version}>
            <div className="answer-box" data-testid="panel-answer">
              <Markdown
                text={stream ? stream.text : version!.text}
                className={stream ? 'streaming-caret' : undefined}
              />
            </div>
          </SelectableAnswer>
          {version && !stream && <ToolCallsSection version={version} />}
          {version && !stream && <AnswerTools key={version.id} node={node} version={version} />}
        </div>
      )}
      {version && !stream && <HighlightSection node={node} version={version} />}
      {version && !stream && <PlaqueSection key={version.id} node={node} version={version} />}
      <ChecksSection node={node} version={stream ? undefined : version} />

      {node.versions.length > 0 && (
        <div className="section">
          <div className="section-title">Versions</div>
          <div className="version-list" data-testid="version-list">
            {node.versions.map((candidate, index) => (
              <button
                key={candidate.id}
                className="version-item"
                aria-current={candidate.id === node.currentVersionId}
                data-testid="version-item"
                onClick={() => state.apply({ type: 'select-version', nodeId: node.id, versionId: candidate.id })}
              >
                <span className="number">v{index + 1}</span>
                <span className="meta">
                  {candidate.origin === 'manual'
                    ? 'edited by you'
                    : candidate.origin === 'demo'
                      ? 'demo answer'
                      : shortModel(candidate.model)}{' '}
                  · {formatWhen(candidate.createdAt)}
                  {candidate.branchOf ? ' · branch' : ''}
                  {candidate.status !== 'complete' ? ` · ${candidate.status}` : ''}
                </span>
                <span />
                <span className="hash" data-testid="version-hash">
                  {candidate.requestHash ?? 'no request: nothing was sent for this version'}
                </span>
              </button>
            ))}
          </div>
        </div>
      )}

      <div className="section" ref={willSendSection} data-testid="will-send-section">
        <div className="section-title">
          Will send
          <span className="spacer" />
          <button className="button small ghost" data-testid="toggle-preview" onClick={() => state.togglePreview()}>
            {previewOpen ? 'Hide' : 'Show'}
          </button>
        </div>
        {previewOpen && (agentModel(node.model) ? <AgentWillSendFor node={node} /> : <WillSendPreview node={node} />)}
      </div>
    </>
  );
}
