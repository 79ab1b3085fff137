import { formatWhen } from '../../core/index.ts';
import { useEffect, useState } from 'react';
import type { SessionRoot, SessionRootsResponse } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';
import { RUNNER_LABEL } from '../atlas/index.ts';

const KIND_NOTE: Record<SessionRoot['kind'], string> = {
  chosen: '',
  default: 'default',
  'agent-lane': "Weft's agent lane, always read",
  environment: 'WEFT_SESSION_ROOTS',
};

function holds(root: SessionRoot): string {
  if (!root.exists) return 'Folder missing';
  if (root.runners.length === 0) return 'No sessions';
  return root.runners.map((runner) => RUNNER_LABEL[runner] ?? runner).join(', ');
}

/**
 * C18: the folders the Session Atlas reads, each with what it holds, added and removed here. The browser cannot
 * pick a folder, so a path is typed or pasted and the server checks it (a real folder, apart from Weft's own).
 * Changes apply at once, like the web search and MCP sections. While `WEFT_SESSION_ROOTS` is set the list is
 * read-only and says why.
 */
export function SessionRootsSettings() {
  const store = useWeftStore();
  const [roots, setRoots] = useState<SessionRootsResponse | null>(null);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // A refusal reads as its sentence; its code stays on hover, for a bug report.
  const [code, setCode] = useState<string | null>(null);

  useEffect(() => {
    store.api.sessionRoots().then(setRoots, (error: unknown) => setMessage(describeError(error).message));
  }, [store]);

  const change = async (request: () => Promise<SessionRootsResponse>, done: string) => {
    setBusy(true);
    setMessage(null);
    setCode(null);
    try {
      setRoots(await request());
      setMessage(done);
      return true;
    } catch (error) {
      const described = describeError(error);
      setMessage(described.message);
      setCode(described.code);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const add = async () => {
    const typed = path.trim();
    if (typed && (await change(() => store.api.addSessionRoot(typed), `Added ${typed}`))) setPath('');
  };
  const overridden = roots?.source === 'environment';

  return (
    <div className="card-panel" data-testid="session-roots-settings">
      <h2>Session Atlas roots</h2>
      <p className="hint">
        The folders where your agents keep their sessions. The Atlas and the why index read them and never write in
        them.
      </p>
      {overridden && (
        <p className="hint" data-testid="session-roots-overridden">
          <code>WEFT_SESSION_ROOTS</code> is set, so it decides these roots and this list is read-only. Unset it and
          restart Weft to choose them here.
        </p>
      )}
      {roots?.source === 'defaults' && (
        <p className="hint">The runners&apos; default folders. Adding or removing one makes this list your own.</p>
      )}
      {!roots && !message && <p className="hint">Reading the roots…</p>}
      {roots && (
        <table className="table">
          <thead>
            <tr>
              <th>Folder</th>
              <th>Holds</th>
              <th>Sessions</th>
              <th>Last change</th>
              {!overridden && <th />}
            </tr>
          </thead>
          <tbody>
            {roots.roots.map((root) => (
              <tr key={root.path} data-testid="session-root" data-path={root.path}>
                <td className="mono">
                  {root.path}
                  {KIND_NOTE[root.kind] && <span className="hint"> ({KIND_NOTE[root.kind]})</span>}
                </td>
                <td data-testid="session-root-runners">{holds(root)}</td>
                <td data-testid="session-root-sessions">{root.sessions}</td>
                <td>{root.lastChangeAt === null ? '—' : formatWhen(root.lastChangeAt)}</td>
                {!overridden && (
                  <td>
                    {root.kind !== 'agent-lane' && (
                      <button
                        className="button small ghost"
                        data-testid="remove-session-root"
                        disabled={busy}
                        onClick={() =>
                          void change(() => store.api.removeSessionRoot(root.path), `Removed ${root.path}`)
                        }
                      >
                        Remove
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {roots && !overridden && (
        <div className="toolbar-row" style={{ marginTop: 12, marginBottom: 0 }}>
          <input
            className="input"
            style={{ flex: 1 }}
            data-testid="session-root-path"
            placeholder="/home/you/agent-sessions"
            value={path}
            onChange={(event) => setPath(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') void add();
            }}
          />
          <button
            className="button"
            data-testid="add-session-root"
            disabled={busy || !path.trim()}
            onClick={() => void add()}
          >
            Add folder
          </button>
        </div>
      )}
      {message && (
        <p
          className="hint"
          data-testid="session-roots-message"
          data-code={code ?? undefined}
          title={code ?? undefined}
          style={{ marginTop: 8, marginBottom: 0 }}
        >
          {message}
        </p>
      )}
    </div>
  );
}
