import { plural, formatWhen } from '../../core/index.ts';
import { useEffect, useState } from 'react';
import type { Runner, Session } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { atlasApi } from './atlas-api.ts';
import { atlasStore } from './atlas-state.ts';
import { loadSessions } from './atlas-loading.ts';
import { clip, RUNNER_LABEL } from './format.ts';
import { ledgerFor, mirrorSession, setFollowing } from './mirror-actions.ts';
import { SessionTurn } from './SessionTurn.tsx';
import { AttachmentText } from './AttachmentText.tsx';
import { useAtlas } from './use-atlas.ts';

/** A long session lists its first turns only; the mirror takes every turn. */
const SHOWN_TURNS = 200;

/** One session's turns and its subagent runs, with the mirror and follow actions. */
export function SessionDetail({ target }: { target: { runner: Runner; sessionId: string } }) {
  const store = useWeftStore();
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [followLive, setFollowLive] = useState(false);
  const [sourceDeleted, setSourceDeleted] = useState(false);
  const mirroring = useAtlas((state) => state.mirroring === target.sessionId);
  const canvasName = useWeft(
    (state) => state.canvases.find((canvas) => canvas.id === state.activeCanvasId)?.name ?? 'this canvas',
  );
  const ledger = useWeft((state) => ledgerFor(state.graph, target));

  useEffect(() => {
    let cancelled = false;
    atlasApi.session(target.runner, target.sessionId).then(
      (response) => {
        if (cancelled) return;
        setSessions(response.sessions);
        setFollowLive(response.following);
        setSourceDeleted(response.sourceDeleted === true);
      },
      (failure) => {
        if (!cancelled) setError(`${describeError(failure).code}: ${describeError(failure).message}`);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [target.runner, target.sessionId]);

  const main = sessions?.find((session) => !session.isSubagent) ?? sessions?.[0];
  const runs = new Map(
    (sessions ?? []).filter((session) => session !== main).map((session) => [session.sessionId, session] as const),
  );
  const mirror = async (where: 'new' | 'current') => {
    await mirrorSession(store, target, where, { follow: followLive, ...(sessions ? { sessions } : {}) });
    void loadSessions();
  };
  const toggleFollow = async (value: boolean) => {
    setFollowLive(value);
    if (ledger) await setFollowing(store, target, value);
  };

  return (
    <aside className="atlas-detail" data-testid="session-detail" data-session-id={target.sessionId}>
      <div className="panel-header">
        <span className={`runner-dot ${target.runner}`} aria-hidden />
        <span className="panel-title">{main ? <AttachmentText text={main.title} length={90} /> : 'Session'}</span>
        <button
          className="button small ghost"
          aria-label="Close session"
          onClick={() => atlasStore.setState({ selected: null })}
        >
          ✕
        </button>
      </div>
      <div className="panel-body">
        {error && <div className="banner atlas-error">{error}</div>}
        {sourceDeleted && (
          <div className="banner" data-testid="detail-source-deleted">
            Source deleted: its agent removed the session file. This is Weft&apos;s archived copy (see Settings).
          </div>
        )}
        {!main && !error && <div className="hint">Reading the session…</div>}
        {main && (
          <>
            <div className="atlas-detail-meta">
              <div>
                <span>Runner</span>
                {RUNNER_LABEL[main.runner]}
              </div>
              <div>
                <span>Started</span>
                {formatWhen(main.startedAt)}
              </div>
              <div>
                <span>Folder</span>
                <code>{main.cwd ?? 'unknown'}</code>
              </div>
              {main.gitBranch && (
                <div>
                  <span>Branch</span>
                  {main.gitBranch}
                </div>
              )}
              <div>
                <span>Models</span>
                {main.models.join(', ') || 'unknown'}
              </div>
            </div>
            <div className="atlas-actions">
              <button
                className="button primary"
                data-testid="mirror-new"
                disabled={mirroring}
                onClick={() => void mirror('new')}
              >
                {mirroring ? 'Mirroring…' : 'Mirror to a new canvas'}
              </button>
              <button
                className="button"
                data-testid="mirror-current"
                disabled={mirroring}
                onClick={() => void mirror('current')}
                title={`Append to “${canvasName}”`}
              >
                {ledger ? `Update on “${clip(canvasName, 24)}”` : `Mirror onto “${clip(canvasName, 24)}”`}
              </button>
              <label className="atlas-toggle" title="New turns appear on the canvas as the agent writes them">
                <input
                  type="checkbox"
                  data-testid="follow-live"
                  checked={followLive}
                  onChange={(event) => void toggleFollow(event.target.checked)}
                />{' '}
                Follow live
              </label>
            </div>
            {ledger && (
              <div className="hint" data-testid="already-mirrored">
                {plural(ledger.turnKeys.length, 'item')} of this session are on “{canvasName}”; mirroring again appends
                only new turns.
              </div>
            )}
            <div className="section-title" style={{ marginTop: 16 }}>
              {plural(main.turns.length, 'turn')}
            </div>
            <ol className="atlas-turns">
              {main.turns.slice(0, SHOWN_TURNS).map((turn) => (
                <SessionTurn key={turn.key} turn={turn} runs={runs} />
              ))}
            </ol>
            {main.turns.length > SHOWN_TURNS && (
              <div className="hint" style={{ marginTop: 8 }}>
                …and {main.turns.length - SHOWN_TURNS} more turns (all of them are mirrored).
              </div>
            )}
          </>
        )}
      </div>
    </aside>
  );
}
