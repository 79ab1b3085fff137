import { useEffect, useRef, useState, type ReactNode } from 'react';
import { stopAgentTurn } from '../store/index.ts';
import { isMac } from '../commands/index.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeft, useWeftStore, countRender } from '../kit/index.ts';
import { QuestionAuthorHint } from '../canvas/index.ts';
import { MentionTextarea } from './MentionTextarea.tsx';
import { useFocusWhenEmpty } from './use-focus-when-empty.ts';

/**
 * Keeps the draft while typing, in a ref (a keystroke renders nothing); commits one edit on blur, idle or before
 * asking. `shown` is the question the field adopts from outside (undo, another tab), `blank` disables Ask.
 */
function useQuestionDraft(node: QuestionNode) {
  const apply = useWeft((state) => state.apply);
  const [shown, setShown] = useState(node.question);
  const draft = useRef(node.question);
  const [blank, setBlank] = useState(!node.question.trim());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const typing = useRef<{ nodeId: string } | null>(null);
  // A newer question from elsewhere (undo, another tab) replaces the draft, unless the person is mid-sentence in it.
  useEffect(() => {
    if (typing.current?.nodeId === node.id) return;
    draft.current = node.question;
    setShown(node.question);
    setBlank(!node.question.trim());
  }, [node.id, node.question]);
  const commit = (value = draft.current) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    typing.current = null;
    if (value !== node.question) apply({ type: 'edit-node', nodeId: node.id, patch: { question: value } });
  };
  const change = (value: string) => {
    typing.current = { nodeId: node.id };
    draft.current = value;
    if (!value.trim() !== blank) setBlank(!value.trim());
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(value), 1200);
  };
  return { shown, blank, change, commit };
}

const ASK_SHORTCUT = `${isMac ? '⌘' : 'Ctrl'}+Enter`;

/**
 * The question being typed and its Ask / Regenerate / Stop buttons. The draft lives here, out of React state, so a
 * keystroke re-renders nothing: not this field, the panel's answer, versions and will-send preview, nor the canvas
 * (the store changes on commit).
 */
export function QuestionField({
  node,
  running,
  summary,
}: {
  node: QuestionNode;
  running: boolean;
  /** What Ask will send, in one line beside it (`WillSendSummary`). */
  summary?: ReactNode;
}) {
  countRender('question-field');
  const store = useWeftStore();
  const { shown, blank, change, commit } = useQuestionDraft(node);
  const questionRef = useFocusWhenEmpty<HTMLTextAreaElement>(node.id, node.question === '');
  const ask = (branch: boolean) => {
    commit();
    void store.getState().ask(node.id, branch ? { branchOf: node.currentVersionId } : {});
  };
  return (
    <>
      <label className="field">
        <span>Question</span>
        <MentionTextarea
          nodeId={node.id}
          inputRef={questionRef}
          testId="question-input"
          value={shown}
          placeholder="What do you want to ask?"
          onChange={change}
          onPick={(next) => {
            change(next);
            commit(next);
          }}
          onUpdateMention={(mentionedId) => {
            // What is typed goes first, so the update rewrites the question the person sees.
            commit();
            store.getState().apply({ type: 'update-mention', nodeId: node.id, mentionedId });
          }}
          onBlur={() => commit()}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
              event.preventDefault();
              ask(false);
            }
          }}
        />
      </label>
      <div className="button-row">
        {running ? (
          <button
            className="button danger"
            data-testid="stop"
            onClick={() => {
              store.getState().stop(node.id);
              stopAgentTurn(node.id);
            }}
          >
            ■ Stop
          </button>
        ) : (
          <>
            <button
              className="button primary"
              data-testid="ask"
              disabled={node.archived || blank}
              title={`${node.versions.length ? 'Regenerate' : 'Ask'} (${ASK_SHORTCUT} in the question)`}
              onClick={() => ask(false)}
            >
              {node.versions.length ? 'Regenerate' : 'Ask'}
              <kbd className="button-keys" data-testid="ask-shortcut">
                {ASK_SHORTCUT}
              </kbd>
            </button>
            {node.versions.length > 0 && (
              <button
                className="button"
                data-testid="regenerate-branch"
                disabled={node.archived}
                onClick={() => ask(true)}
              >
                Regenerate as branch
              </button>
            )}
          </>
        )}
        {summary}
      </div>
      {/* Below the buttons, and it keeps its height when the edit on blur makes the question the person's. */}
      <QuestionAuthorHint node={node} />
    </>
  );
}
