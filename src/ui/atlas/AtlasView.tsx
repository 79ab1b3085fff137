import { plural, formatWhen } from '../../core/index.ts';
import { useEffect, useMemo, useState } from 'react';
import type { Runner, AtlasSessionSummary, AtlasSort } from '../../../protocol/index.ts';
import { atlasStore } from './atlas-state.ts';
import { loadSessions } from './atlas-loading.ts';
import { folderLabels, formatBytes, RUNNER_LABEL, shortFolder } from './format.ts';
import { SessionDetail } from './SessionDetail.tsx';
import { AttachmentText } from './AttachmentText.tsx';
import { useAtlas } from './use-atlas.ts';

const SORTS: { value: AtlasSort; label: string }[] = [
  { value: 'recent', label: 'Newest first' },
  { value: 'oldest', label: 'Oldest first' },
  { value: 'size', label: 'Largest first' },
  { value: 'turns', label: 'Most turns' },
  { value: 'title', label: 'Title A–Z' },
];

function SessionCard({
  session,
  selected,
  folder,
}: {
  session: AtlasSessionSummary;
  selected: boolean;
  folder: string;
}) {
  return (
    <button
      className={`atlas-card${selected ? ' selected' : ''}`}
      data-testid="atlas-session"
      data-session-id={session.sessionId}
      data-runner={session.runner}
      onClick={() => atlasStore.setState({ selected: { runner: session.runner, sessionId: session.sessionId } })}
    >
      <div className="atlas-card-head">
        <span className={`runner-dot ${session.runner}`} aria-hidden />
        <span className="atlas-card-runner">{RUNNER_LABEL[session.runner]}</span>
        {session.isSubagent && <span className="badge">subagent run</span>}
        {session.hasSubagents && (
          <span className="badge atlas-sub" data-testid="has-subagents">
            subagents
          </span>
        )}
        {session.following && <span className="badge atlas-live">following</span>}
        {session.sourceDeleted && (
          <span className="badge" data-testid="source-deleted" title="Its agent deleted the file; Weft kept a copy">
            source deleted
          </span>
        )}
      </div>
      <div className="atlas-card-title">
        {session.title ? <AttachmentText text={session.title} length={200} /> : 'Untitled session'}
      </div>
      <div className="atlas-card-meta">
        <span>{formatWhen(session.startedAt)}</span>
        <span data-testid="turn-count">{plural(session.turnCount, 'turn')}</span>
        <span>{formatBytes(session.size)}</span>
      </div>
      <div className="atlas-card-folder" title={session.cwd ?? ''}>
        {folder}
        {session.gitBranch ? ` · ${session.gitBranch}` : ''}
      </div>
    </button>
  );
}

/** The Atlas browser: runners, project folders, session cards with search, filters, sort and the subagent toggle. */
export function AtlasView() {
  const listing = useAtlas((state) => state.listing);
  const loading = useAtlas((state) => state.loading);
  const error = useAtlas((state) => state.error);
  const runner = useAtlas((state) => state.runner);
  const project = useAtlas((state) => state.project);
  const sort = useAtlas((state) => state.sort);
  const subagents = useAtlas((state) => state.subagents);
  const selected = useAtlas((state) => state.selected);
  const [draft, setDraft] = useState(atlasStore.getState().query);

  useEffect(() => {
    void loadSessions();
  }, [runner, sort, subagents]);
  // Search as the person types, after a short pause.
  useEffect(() => {
    if (draft === atlasStore.getState().query) return;
    const timer = setTimeout(() => {
      atlasStore.setState({ query: draft });
      void loadSessions();
    }, 250);
    return () => clearTimeout(timer);
  }, [draft]);

  const sessions = useMemo(
    () => (listing?.sessions ?? []).filter((session) => project === null || session.cwd === project),
    [listing, project],
  );
  const labels = useMemo(() => folderLabels((listing?.projects ?? []).map((entry) => entry.cwd)), [listing]);
  const total = listing?.runners.reduce((sum, entry) => sum + entry.sessions, 0) ?? 0;

  return (
    <div className="atlas" data-testid="atlas-view">
      <aside className="atlas-side">
        <div className="atlas-side-title">Runners</div>
        <button
          className={`atlas-filter${runner === null ? ' active' : ''}`}
          data-testid="runner-all"
          onClick={() => atlasStore.setState({ runner: null, project: null })}
        >
          <span>All sessions</span>
          <span className="atlas-count">{total}</span>
        </button>
        {(['claude-code', 'codex', 'pi'] as Runner[]).map((id) => {
          const count = listing?.runners.find((entry) => entry.runner === id)?.sessions ?? 0;
          return (
            <button
              key={id}
              className={`atlas-filter${runner === id ? ' active' : ''}`}
              data-testid={`runner-${id}`}
              onClick={() => atlasStore.setState({ runner: runner === id ? null : id, project: null })}
            >
              <span>
                <span className={`runner-dot ${id}`} aria-hidden /> {RUNNER_LABEL[id]}
              </span>
              <span className="atlas-count">{count}</span>
            </button>
          );
        })}
        <div className="atlas-side-title">Project folders</div>
        <div className="atlas-projects">
          {(listing?.projects ?? []).map((entry) => (
            <button
              key={entry.cwd ?? '(none)'}
              className={`atlas-filter${project === entry.cwd ? ' active' : ''}`}
              title={entry.cwd ?? 'Unknown folder'}
              data-testid="atlas-project"
              onClick={() => atlasStore.setState({ project: project === entry.cwd ? null : entry.cwd })}
            >
              <span className="atlas-folder">{labels.get(entry.cwd) ?? shortFolder(entry.cwd)}</span>
              <span className="atlas-count">{entry.sessions}</span>
            </button>
          ))}
        </div>
        {listing && (
          <div className="hint atlas-roots" title={listing.roots.join('\n')}>
            {plural(listing.roots.length, 'session root')}, read-only · index refreshed in {listing.refresh.durationMs}{' '}
            ms
          </div>
        )}
      </aside>
      <section className="atlas-main">
        <div className="atlas-toolbar">
          <input
            className="input atlas-search"
            data-testid="atlas-search"
            placeholder="Search titles, folders and what was said…"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <select
            className="select"
            data-testid="atlas-sort"
            value={sort}
            onChange={(event) => atlasStore.setState({ sort: event.target.value as AtlasSort })}
          >
            {SORTS.map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.label}
              </option>
            ))}
          </select>
          <label className="atlas-toggle">
            <input
              type="checkbox"
              data-testid="atlas-subagents"
              checked={subagents}
              onChange={(event) => atlasStore.setState({ subagents: event.target.checked })}
            />{' '}
            Show subagent runs
          </label>
          <button className="button" onClick={() => void loadSessions()} disabled={loading}>
            {loading ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
        {error && (
          <div className="banner atlas-error" data-testid="atlas-error">
            {error}
          </div>
        )}
        <div className="atlas-summary hint" data-testid="atlas-summary">
          {listing
            ? `${sessions.length} of ${plural(listing.total, 'session')}${project ? ` in ${shortFolder(project)}` : ''}`
            : 'Reading the session index…'}
        </div>
        <div className="atlas-grid">
          {sessions.map((session) => (
            <SessionCard
              key={`${session.runner}:${session.sessionId}`}
              session={session}
              folder={labels.get(session.cwd) ?? shortFolder(session.cwd)}
              selected={selected?.sessionId === session.sessionId && selected.runner === session.runner}
            />
          ))}
          {listing && sessions.length === 0 && (
            <div className="empty-state atlas-empty">
              No sessions match. Agents' sessions appear here once Claude Code, Codex or Pi has run on this machine.
            </div>
          )}
        </div>
      </section>
      {selected && <SessionDetail key={`${selected.runner}:${selected.sessionId}`} target={selected} />}
    </div>
  );
}
