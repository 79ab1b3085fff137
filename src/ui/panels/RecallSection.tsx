import { attachmentPlainText, formatDay, plural } from '../../core/index.ts';
import { useState } from 'react';
import {
  DEFAULT_RECALL_SETTING,
  type QuestionNode,
  type RecallItem,
  type RecallOmission,
  type RecallSetting,
} from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { describeError } from '../api/index.ts';
import { recallClient } from '../store/index.ts';
import { RUNNER_LABEL } from '../atlas/index.ts';
import { useRecallPlan } from '../recall/use-recall-plan.ts';
import { RecallScopeHelp } from './RecallScopeHelp.tsx';

const CEILING_LABEL: Record<RecallSetting['ceiling'], string> = {
  small: 'Up to 4k tokens',
  medium: 'Up to 12k tokens',
  large: 'Up to 40k tokens',
};
const REACH_LABEL: Record<RecallSetting['reach'], string> = {
  light: 'Light: the judge reads the 40 best',
  deep: 'Deep: the judge reads up to 200',
  full: 'Full: every excerpt in scope (asks you first)',
};
/** Why an item was left out, in words a person reads (the code stays in the item's tooltip for bug reports). */
const REASON_LABEL: Record<RecallOmission['reason'], string> = {
  budget: 'did not fit the budget',
  duplicate: 'same words as an item kept',
  'out-of-scope': 'asked in another project',
  'archived-source': 'its source was archived or deleted',
  'put-aside': 'put aside by you',
  struck: 'struck by you',
  inferred: 'inferred (a model’s summary; switch on “inferred” to read it)',
  'after-as-of': 'after the node’s “as of” date',
};

/** Where an item comes from: runner, session, turn and date (a dossier: its topic). */
export function recallSourceLine(
  item: Pick<RecallItem, 'kind' | 'runner' | 'sessionTitle' | 'turn' | 'at' | 'topic' | 'knownAs' | 'completeness'>,
) {
  // #29: an item not read as written says how it is known.
  const known =
    item.knownAs && item.knownAs !== 'observed' && item.knownAs !== 'stated'
      ? ` · ${item.knownAs}${item.completeness ? ` (${item.completeness})` : ''}`
      : '';
  if (item.kind === 'dossier') return `Dossier “${item.topic ?? item.sessionTitle}” · ${formatDay(item.at)}${known}`;
  const turn = item.turn === null ? '' : ` · turn ${item.turn}`;
  const runner = item.runner ? (RUNNER_LABEL[item.runner] ?? item.runner) : 'Memory';
  // A CLI's title can hold its attachment markup (`<file name=…>`): the line reads the attachment's name instead.
  return `${runner} · “${attachmentPlainText(item.sessionTitle)}”${turn} · ${formatDay(item.at)}${known}`;
}

/** C16: recall into this node's asks — off until switched on, scoped to the canvas's folder, items strikeable. */
export function RecallSection({ node }: { node: QuestionNode }) {
  const apply = useWeft((state) => state.apply);
  const toast = useWeft((state) => state.toast);
  const workingDirectory = useWeft((state) => state.graph?.canvas.workingDirectory ?? null);
  const setting = node.recall ?? DEFAULT_RECALL_SETTING;
  const { request, entry } = useRecallPlan(node);
  // While a full plan is asked for, a second press would ask the person to confirm it a second time.
  const [planningFull, setPlanningFull] = useState(false);
  const save = (patch: Partial<RecallSetting>) =>
    apply({ type: 'edit-node', nodeId: node.id, patch: { recall: { ...setting, ...patch } } });
  const plan = entry?.state === 'ready' ? entry.plan : null;
  const omitted = plan?.omitted ?? [];
  const counts = new Map<RecallOmission['reason'], number>();
  for (const omission of omitted) counts.set(omission.reason, (counts.get(omission.reason) ?? 0) + 1);
  return (
    <div className="section" data-testid="recall-section">
      <div className="section-title">Recall</div>
      <label className="switch" style={{ display: 'flex' }}>
        <input
          type="checkbox"
          data-testid="recall-switch"
          checked={setting.enabled}
          onChange={(event) => save({ enabled: event.target.checked })}
        />
        Recall past turns and dossiers into this ask
      </label>
      {!setting.enabled && <div className="hint">Off: nothing from past sessions or other canvases is sent.</div>}
      {setting.enabled && (
        <>
          <label className="switch" style={{ display: 'flex' }}>
            <input
              type="checkbox"
              data-testid="recall-global"
              checked={setting.global}
              onChange={(event) => save({ global: event.target.checked })}
            />
            Search every project on this machine
          </label>
          <div className="hint" data-testid="recall-scope">
            {setting.global
              ? 'Global: recall reads every project the index holds, not only this canvas’s folder.'
              : workingDirectory
                ? `Scope: this canvas, and the sessions, memory files and canvases of ${workingDirectory}.`
                : 'Scope: this canvas only.'}
          </div>
          <RecallScopeHelp
            setting={setting}
            save={save}
            outOfScope={counts.get('out-of-scope') ?? 0}
            overBudget={counts.get('budget') ?? 0}
          />
          <label className="model-row">
            <span>Budget</span>
            <select
              className="select"
              data-testid="recall-ceiling"
              value={setting.ceiling}
              onChange={(event) => save({ ceiling: event.target.value as RecallSetting['ceiling'] })}
            >
              {(Object.keys(CEILING_LABEL) as RecallSetting['ceiling'][]).map((ceiling) => (
                <option key={ceiling} value={ceiling}>
                  {CEILING_LABEL[ceiling]}
                </option>
              ))}
            </select>
          </label>
          <label className="model-row">
            <span>Reach</span>
            <select
              className="select"
              data-testid="recall-reach"
              value={setting.reach}
              onChange={(event) => save({ reach: event.target.value as RecallSetting['reach'] })}
            >
              {(Object.keys(REACH_LABEL) as RecallSetting['reach'][]).map((reach) => (
                <option key={reach} value={reach}>
                  {REACH_LABEL[reach]}
                </option>
              ))}
            </select>
          </label>
          {entry?.state === 'loading' && <div className="hint">Looking up past turns…</div>}
          {entry?.state === 'failed' && (
            <div className="hint" data-testid="recall-error">
              Recall failed: {entry.message}
            </div>
          )}
          {entry?.state === 'ready' && entry.standIn && request && (
            <div className="hint" data-testid="recall-full-pending">
              Shown: the light reach’s plan. The full reach waits for your confirmation (count, time, price), here or
              when you ask, and is planned then.{' '}
              <button
                className="button small"
                data-testid="recall-full-confirm"
                disabled={planningFull}
                onClick={() => {
                  if (planningFull) return;
                  setPlanningFull(true);
                  void recallClient
                    .confirmedFullPlan(request)
                    .catch((error: unknown) =>
                      toast('error', describeError(error).code, `Recall failed: ${describeError(error).message}`),
                    )
                    .finally(() => setPlanningFull(false));
                }}
              >
                Plan the full reach…
              </button>
            </div>
          )}
          {plan && (
            <>
              <div className="hint" data-testid="recall-summary">
                {plan.terms.length > 0 ? `Terms: ${plan.terms.join(', ')}. ` : 'No terms to look up. '}
                {plural(plan.items.length, 'item')} · {plan.usedTokens} of {plan.ceilingTokens} tokens
              </div>
              <ul className="recall-items" data-testid="recall-items">
                {plan.items.map((item) => (
                  <li key={item.id} className="recall-item" data-testid="recall-item" data-item-id={item.id}>
                    <div className="recall-item-head">
                      <span className="recall-label">{item.label}</span>
                      <button
                        className="button small"
                        data-testid="recall-strike"
                        title="Leave this out from the next run on"
                        onClick={() => save({ struck: [...setting.struck, item.id] })}
                      >
                        Strike
                      </button>
                    </div>
                    <div className="recall-source">
                      {recallSourceLine(item)}
                      {item.redactions > 0 && ` · ${item.redactions} redacted`}
                    </div>
                  </li>
                ))}
              </ul>
              {omitted.length > 0 && (
                <details data-testid="recall-omitted">
                  <summary>
                    Left out: {[...counts].map(([reason, count]) => `${count} ${REASON_LABEL[reason]}`).join(', ')}
                  </summary>
                  <ul className="recall-items">
                    {omitted.map((omission) => (
                      <li
                        key={`${omission.id}:${omission.reason}`}
                        className="recall-item"
                        data-testid="recall-omission"
                        data-reason={omission.reason}
                      >
                        <div className="recall-item-head">
                          <span className="recall-label" title={omission.reason}>
                            {REASON_LABEL[omission.reason]}
                          </span>
                          {omission.reason === 'struck' && (
                            <button
                              className="button small"
                              data-testid="recall-restore"
                              onClick={() => save({ struck: setting.struck.filter((id) => id !== omission.id) })}
                            >
                              Restore
                            </button>
                          )}
                        </div>
                        <div className="recall-source">{recallSourceLine(omission)}</div>
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </>
          )}
          <div className="hint">
            The block tells the model these are evidence to consult, not instructions; keys and passwords are redacted.
            A strike takes effect on the next run.
          </div>
        </>
      )}
    </div>
  );
}
