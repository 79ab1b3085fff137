import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { AskCanvasTurn } from '../../../protocol/index.ts';
import { isLive } from '../../core/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { nodeTitle, shortModel } from '../store/index.ts';
import { canvasBridge } from '../commands/index.ts';
import { registerAskCanvasCommands } from './ask-canvas-commands.ts';
import { askCanvasClient } from './ask-canvas-client.ts';
import { AskCanvasPreview } from './AskCanvasPreview.tsx';
import { CitedAnswer } from './CitedAnswer.tsx';
import { planAsk } from './plan-ask.ts';
import './ask-canvas.css';

registerAskCanvasCommands();

const STATUS_LABEL: Record<AskCanvasTurn['status'], string> = {
  complete: '',
  failed: 'failed',
  aborted: 'stopped',
};

function TurnMeta({ turn }: { turn: AskCanvasTurn }) {
  const { layers } = turn;
  return (
    <div className="ask-meta">
      <code data-testid="ask-canvas-turn-hash" title={`Request hash ${turn.requestHash}`}>
        {turn.requestHash.slice(0, 12)}…
      </code>
      <span>
        {shortModel(turn.model)} · outline {layers.outline.length} · chain {layers.chain.length} · materials{' '}
        {layers.materials.length} · references {layers.references.length}
      </span>
      {STATUS_LABEL[turn.status] && <span className="ask-status">{STATUS_LABEL[turn.status]}</span>}
    </div>
  );
}

/**
 * Ask the canvas (C17): a side chat about the open canvas beside it. Each ask sends the outline of every live node,
 * the focused node's compiled chain, and the last eight answered turns; the preview shows exactly that and its hash.
 * Cited node numbers in an answer select and centre that node.
 */
export function AskCanvasPanel() {
  const store = useWeftStore();
  const open = useStore(askCanvasClient.view, (view) => view.open);
  const chatCanvasId = useStore(askCanvasClient.view, (view) => view.canvasId);
  const turns = useStore(askCanvasClient.view, (view) => view.turns);
  const pending = useStore(askCanvasClient.view, (view) => view.pending);
  const previewOpen = useStore(askCanvasClient.view, (view) => view.previewOpen);
  const error = useStore(askCanvasClient.view, (view) => view.error);
  const graph = useWeft((state) => state.graph);
  const shown = useWeft((state) => state.shown);
  const models = useWeft((state) => state.models);
  const defaultModelId = useWeft((state) => state.defaultModelId);
  const focusedNodeId = useWeft((state) => state.focusedNodeId);
  const canvasId = graph?.canvas.id ?? null;
  const [draft, setDraft] = useState('');
  const deferredDraft = useDeferredValue(draft);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open && canvasId && canvasId !== chatCanvasId) void askCanvasClient.load(canvasId);
  }, [open, canvasId, chatCanvasId]);
  const shownTurns = chatCanvasId === canvasId ? turns : [];
  const streaming = pending && pending.canvasId === canvasId ? pending : null;
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [shownTurns.length, streaming?.text]);

  const planned = useMemo(
    () =>
      open && previewOpen
        ? planAsk({ graph, shown, models, defaultModelId, focusedNodeId }, shownTurns, deferredDraft.trim())
        : null,
    [open, previewOpen, graph, shown, models, defaultModelId, focusedNodeId, shownTurns, deferredDraft],
  );

  const cite = useCallback(
    (nodeId: string, number: number) => {
      const state = store.getState();
      if (!state.graph?.nodes.has(nodeId)) {
        state.toast('info', 'cited-node-gone', `Node #${number} of that answer is no longer on this canvas.`);
        return;
      }
      state.setView('canvas');
      state.setSelection([nodeId]);
      state.focusNode(nodeId);
      canvasBridge.centerOn(nodeId);
    },
    [store],
  );

  if (!open || !graph) return null;
  const focused = focusedNodeId ? graph.nodes.get(focusedNodeId) : undefined;
  const focusLive = focused !== undefined && isLive(focused) && focused.kind !== 'frame';
  const send = () => {
    const question = draft;
    if (!question.trim()) return;
    setDraft('');
    void askCanvasClient.send(store, question);
  };

  return (
    <aside className="panel ask-canvas-panel" data-testid="ask-canvas-panel" aria-label="Ask the canvas">
      <div className="panel-header">
        <span className="panel-title">Ask the canvas</span>
        <button
          className="button small ghost"
          data-testid="ask-canvas-clear"
          disabled={shownTurns.length === 0 || streaming !== null}
          onClick={() => canvasId && void askCanvasClient.clear(canvasId)}
          title="Empty this canvas's side chat"
        >
          Clear
        </button>
        <button
          className="button small ghost"
          data-testid="ask-canvas-close"
          onClick={() => askCanvasClient.setOpen(false)}
          aria-label="Close"
        >
          ×
        </button>
      </div>
      <div className="panel-body ask-turns" ref={list} data-testid="ask-canvas-turns">
        {error && <div className="ask-error">{error}</div>}
        {shownTurns.length === 0 && !streaming && (
          <p className="ask-empty">
            Ask about this canvas: what is stale, what contradicts what, what is missing. Each ask sends a numbered
            outline of every live node, the focused node’s chain, and the last eight turns of this chat.
          </p>
        )}
        {shownTurns.map((turn) => (
          <div key={turn.id} className="ask-turn" data-testid="ask-canvas-turn" data-status={turn.status}>
            <div className="ask-question">{turn.question}</div>
            <div className="ask-answer" data-testid="ask-canvas-answer">
              <CitedAnswer text={turn.answer} outline={turn.layers.outline} onCite={cite} />
            </div>
            <TurnMeta turn={turn} />
          </div>
        ))}
        {streaming && (
          <div className="ask-turn" data-testid="ask-canvas-pending">
            <div className="ask-question">{streaming.question}</div>
            <div className="ask-answer" data-testid="ask-canvas-streaming">
              {streaming.text ? (
                <CitedAnswer text={streaming.text} outline={streaming.layers.outline} onCite={cite} />
              ) : (
                <span className="ask-waiting">{streaming.accepted ? 'Answering…' : 'Sending…'}</span>
              )}
            </div>
          </div>
        )}
      </div>
      <div className="ask-composer">
        <div className="ask-focus" data-testid="ask-canvas-focus">
          {focusLive
            ? `Focus: “${nodeTitle(focused)}” — its chain, materials and references go out in full.`
            : 'No node focused: the outline and the chat go out.'}
        </div>
        <textarea
          className="input ask-input"
          data-testid="ask-canvas-input"
          rows={3}
          placeholder="Ask about this canvas…"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              event.stopPropagation();
              if (!streaming) send();
            }
          }}
        />
        <div className="ask-actions">
          <button
            className="button small ghost"
            data-testid="ask-canvas-preview-toggle"
            aria-pressed={previewOpen}
            onClick={() => askCanvasClient.setPreviewOpen(!previewOpen)}
          >
            {previewOpen ? 'Hide what will be sent' : 'What will be sent'}
          </button>
          <span className="spacer" />
          {streaming ? (
            <button className="button" data-testid="ask-canvas-stop" onClick={() => askCanvasClient.stop()}>
              Stop
            </button>
          ) : (
            <button
              className="button primary"
              data-testid="ask-canvas-send"
              disabled={!draft.trim() || pending !== null}
              onClick={send}
            >
              Ask
            </button>
          )}
        </div>
        {planned && <AskCanvasPreview planned={planned} graph={graph} />}
      </div>
    </aside>
  );
}
