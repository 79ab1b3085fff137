import { useEffect, useState } from 'react';
import { plural } from '../../core/index.ts';
import { RECALL_CEILING_TOKENS, type RecallSetting } from '../../../protocol/index.ts';
import { useWorkingDirectory } from '../agents/index.ts';

const NEXT_CEILING: Partial<Record<RecallSetting['ceiling'], RecallSetting['ceiling']>> = {
  small: 'medium',
  medium: 'large',
};

/** Thousands of tokens, as the budget picker names them (12k). */
function thousands(tokens: number): string {
  return `${Math.round(tokens / 1000)}k`;
}

/**
 * Why recall left something out, in plain words, with the one-click fix beside it (issue 30.2): no working
 * directory → set it here (the same checked path as the agent lane's setting); another project → search every
 * project for this question; over the budget → raise it one step.
 */
export function RecallScopeHelp({
  setting,
  save,
  outOfScope,
  overBudget,
}: {
  setting: RecallSetting;
  save: (patch: Partial<RecallSetting>) => void;
  /** Items left out as asked in another project. */
  outOfScope: number;
  /** Items left out because the block was full. */
  overBudget: number;
}) {
  const { folder, setFolder, checking, refusal, pick } = useWorkingDirectory();
  const [draft, setDraft] = useState(folder ?? '');
  useEffect(() => setDraft(folder ?? ''), [folder]);
  const widen = (
    <button className="button small" data-testid="recall-go-global" onClick={() => save({ global: true })}>
      Search every project for this question
    </button>
  );
  const next = NEXT_CEILING[setting.ceiling];
  return (
    <>
      {!setting.global && folder === null && (
        <div className="recall-help" data-testid="recall-no-folder">
          <div className="hint">
            This canvas has no working directory, so recall has no project to search beyond this canvas. Set the folder
            its work belongs to, or search every project for this question.
          </div>
          <div className="recall-help-actions">
            <input
              className="input"
              data-testid="recall-cwd"
              value={draft}
              placeholder="/absolute/path/to/project"
              aria-label="Working directory of this canvas"
              aria-invalid={refusal !== null}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && draft.trim() !== '') void setFolder(draft.trim());
              }}
            />
            <button
              className="button small"
              data-testid="recall-cwd-set"
              disabled={checking || draft.trim() === ''}
              onClick={() => void setFolder(draft.trim())}
            >
              Set working directory
            </button>
            {pick && (
              <button
                className="button small"
                data-testid="recall-cwd-pick"
                disabled={checking}
                onClick={() => {
                  void pick().then((chosen) => {
                    if (chosen === null) return;
                    setDraft(chosen);
                    return setFolder(chosen);
                  });
                }}
              >
                Choose folder…
              </button>
            )}
            {widen}
          </div>
          {refusal && (
            <div className="meta" role="alert" data-testid="recall-cwd-error" title={refusal.code}>
              {refusal.message}
            </div>
          )}
        </div>
      )}
      {!setting.global && folder !== null && outOfScope > 0 && (
        <div className="recall-help" data-testid="recall-out-of-scope-help">
          <div className="hint">
            {plural(outOfScope, 'turn')} matched but {outOfScope === 1 ? 'was' : 'were'} asked outside {folder}: recall
            stays in this canvas’s project unless you widen it.
          </div>
          <div className="recall-help-actions">{widen}</div>
        </div>
      )}
      {overBudget > 0 && next && (
        <div className="recall-help" data-testid="recall-budget-help">
          <div className="hint">
            {plural(overBudget, 'item')} did not fit in {thousands(RECALL_CEILING_TOKENS[setting.ceiling])} tokens.
          </div>
          <div className="recall-help-actions">
            <button className="button small" data-testid="recall-raise-budget" onClick={() => save({ ceiling: next })}>
              Raise the budget to {thousands(RECALL_CEILING_TOKENS[next])} tokens
            </button>
          </div>
        </div>
      )}
    </>
  );
}
