import { plural, formatWhen } from '../../core/index.ts';
import { useEffect, useState } from 'react';
import { RunnerSchema } from '../../../protocol/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { askWhy, setWhyFromTeam, setWhyIncludeRead } from './atlas-loading.ts';
import { RUNNER_LABEL } from './format.ts';
import { openTurn } from './mirror-actions.ts';
import { useAtlas } from './use-atlas.ts';
import { AttachmentText } from './AttachmentText.tsx';

/** "Which turn touched this?": a path, URL or arXiv id → the turns, each opening its mirror at that turn. */
export function WhyPanel() {
  const store = useWeftStore();
  const target = useAtlas((state) => state.whyTarget);
  const result = useAtlas((state) => state.whyResult);
  const loading = useAtlas((state) => state.whyLoading);
  const error = useAtlas((state) => state.whyError);
  const includeRead = useAtlas((state) => state.whyIncludeRead);
  const fromTeam = useAtlas((state) => state.whyFromTeam);
  const [draft, setDraft] = useState(target);
  useEffect(() => setDraft(target), [target]);
  // The team index toggle shows only when one is set (Settings → Team index).
  const [teamLocation, setTeamLocation] = useState<string | null>(null);
  useEffect(() => {
    store.api.teamIndex().then(
      (team) => setTeamLocation(team.configured ? team.location : null),
      () => setTeamLocation(null),
    );
  }, [store]);

  return (
    <div className="atlas why" data-testid="why-view">
      <section className="atlas-main why-main">
        <h2 className="why-title">Why — which agent turn touched it?</h2>
        <form
          className="atlas-toolbar"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim()) void askWhy(draft.trim(), store.getState().graph?.canvas.workingDirectory ?? null);
          }}
        >
          <input
            className="input atlas-search"
            data-testid="why-input"
            placeholder="/path/to/file.ts, a file name, https://…, arxiv:2401.01234"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button className="button primary" data-testid="why-ask" type="submit" disabled={loading || !draft.trim()}>
            {loading ? 'Looking…' : 'Ask why'}
          </button>
          <label className="atlas-toggle" title="Read-only turns show anyway when no turn changed it">
            <input
              type="checkbox"
              data-testid="why-include-read"
              checked={includeRead}
              onChange={(event) => void setWhyIncludeRead(event.target.checked)}
            />{' '}
            Include read-only turns
          </label>
          {(teamLocation !== null || fromTeam) && (
            <label className="atlas-toggle" title={teamLocation ?? undefined}>
              <input
                type="checkbox"
                data-testid="why-from-team"
                checked={fromTeam}
                onChange={(event) => void setWhyFromTeam(event.target.checked)}
              />{' '}
              Ask the team index
            </label>
          )}
        </form>
        {error && (
          <div className="banner atlas-error" data-testid="why-error">
            {error}
          </div>
        )}
        {result && (
          <div className="hint atlas-summary" data-testid="why-summary">
            {result.hits.length === 0
              ? `No recorded turn touched ${result.target}.`
              : `${plural(result.hits.length, 'turn')} touched ${result.target}`}
            {result.hiddenReads > 0 && ` · ${plural(result.hiddenReads, 'read-only turn')} hidden`}
            {(result.putAside ?? 0) > 0 && ` · ${plural(result.putAside ?? 0, 'turn')} put aside`}
            {result.answeredBy === 'team-index' && (
              <span data-testid="why-team-label"> · answered by the team index at {result.teamLocation}</span>
            )}
          </div>
        )}
        <ol className="why-hits">
          {(result?.hits ?? []).map((hit) => {
            const runner = RunnerSchema.safeParse(hit.runner);
            return (
              <li
                key={`${hit.turnKey}:${hit.path}`}
                className="why-hit"
                data-testid="why-hit"
                data-turn-key={hit.turnKey}
              >
                <div className="why-hit-head">
                  {(hit.ops?.length ? hit.ops : [hit.op]).map((op) => (
                    <span key={op} className={`badge why-op ${op}`} data-testid="why-op">
                      {op}
                    </span>
                  ))}
                  <span className={`runner-dot ${hit.runner}`} aria-hidden />
                  <span>
                    {RUNNER_LABEL[hit.runner] ?? hit.runner} · turn {hit.turn}
                    {hit.sessionId !== hit.mainSessionId ? ' (subagent run)' : ''}
                  </span>
                  <span className="hint">{formatWhen(hit.at)}</span>
                  <span className="topbar-spacer" />
                  {runner.success && (
                    <button
                      className="button small"
                      data-testid="why-open"
                      onClick={() =>
                        void openTurn(store, { runner: runner.data, sessionId: hit.mainSessionId }, hit.turnKey)
                      }
                    >
                      Open on canvas
                    </button>
                  )}
                </div>
                <div className="why-question">
                  {hit.question.trim() ? <AttachmentText text={hit.question} length={400} /> : <em>(no text)</em>}
                </div>
                <div className="why-path">
                  <code>{hit.path}</code>
                </div>
              </li>
            );
          })}
        </ol>
        {!result && !loading && !error && (
          <div className="hint">
            Turns come from the why index over your agents' sessions. Mirror nodes offer “why this file” for the files
            they touched.
          </div>
        )}
      </section>
      <button
        className="button small ghost why-close"
        onClick={() => store.getState().closeView('why')}
        aria-label="Close Why"
      >
        ✕
      </button>
    </div>
  );
}
