import { useEffect, useState, type RefObject } from 'react';
import type { TeamIndexCheck, TeamIndexSettings as Saved } from '../../../protocol/index.ts';
import { formatWhen, plural } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';

/**
 * Issue 32.4: a team's why index on PostgreSQL. The connection string is typed here and stored by the server with
 * the keys; it never comes back (the card shows the server as `postgres://host:port/database`). The page's one Save
 * stores a typed string (`saveRef`); "Test connection" says what this person's role can read and the machines that
 * pushed it, each with its last push; "Forget" removes the string.
 */
export function TeamIndexSettings({ saveRef }: { saveRef: RefObject<(() => Promise<boolean>) | null> }) {
  const store = useWeftStore();
  const [saved, setSaved] = useState<Saved | null>(null);
  const [url, setUrl] = useState('');
  const [check, setCheck] = useState<TeamIndexCheck | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    store.api.teamIndex().then(setSaved, (error: unknown) => setMessage(describeError(error).message));
  }, [store]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setMessage(null);
    try {
      await work();
    } catch (error) {
      setMessage(describeError(error).message);
    } finally {
      setBusy(false);
    }
  };
  const storeUrl = async (next: string | null) => {
    setSaved(await store.api.saveTeamIndex({ url: next }));
    setUrl('');
    setCheck(null);
    setMessage(next ? 'Saved' : 'Forgotten');
  };
  // The page's Save: stores a typed string; true when there was nothing to store or it stored.
  const save = async (): Promise<boolean> => {
    if (!url.trim()) return true;
    try {
      await storeUrl(url.trim());
      return true;
    } catch (error) {
      setMessage(`Not saved: ${describeError(error).message}`);
      return false;
    }
  };
  useEffect(() => {
    saveRef.current = save;
  });
  const forget = () => run(() => storeUrl(null));
  const test = () => run(async () => setCheck(await store.api.testTeamIndex()));

  return (
    <div className="card-panel" data-testid="team-index-settings">
      <h2>Team index</h2>
      <p className="hint">
        A team&apos;s why index on PostgreSQL (set up with <code>weft db init</code>). Your own connection string
        decides what you may read. It is kept with your keys and never shown again.
      </p>
      <div className="hint" data-testid="team-index-location">
        {saved?.configured ? `Connected to ${saved.location}` : 'No team index set: the Atlas reads this machine only.'}
      </div>
      <label className="field">
        <span>
          Connection string, stored by the page&apos;s Save {saved?.configured ? '(saved — type to replace)' : ''}
        </span>
        <input
          className="input"
          type="password"
          autoComplete="off"
          data-testid="team-index-url"
          placeholder="postgres://you:…@db.lab.example/weft?sslmode=verify-full"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
      </label>
      <div className="row" style={{ display: 'flex', gap: 8 }}>
        <button
          className="button"
          data-testid="team-index-test"
          disabled={busy || !saved?.configured}
          onClick={() => void test()}
        >
          {busy ? 'Testing…' : 'Test connection'}
        </button>
        {saved?.configured && (
          <button className="button" data-testid="team-index-forget" disabled={busy} onClick={() => void forget()}>
            Forget
          </button>
        )}
      </div>
      {message && (
        <div className="hint" data-testid="team-index-message">
          {message}
        </div>
      )}
      {check && <TeamIndexCheckView check={check} />}
    </div>
  );
}

function TeamIndexCheckView({ check }: { check: TeamIndexCheck }) {
  if (!check.ok)
    return (
      <div className="banner" data-testid="team-index-check">
        Could not connect: {check.message}
      </div>
    );
  return (
    <div data-testid="team-index-check">
      <div className="hint">
        Connected. You can read {plural(check.turns, 'turn')} in {plural(check.sessions, 'session')} (schema{' '}
        {check.schemaVersions.join(', ')}).
      </div>
      {check.machines === null ? (
        <div className="hint" data-testid="team-index-machines">
          This database does not record machines yet (its schema predates per-machine pushes).
        </div>
      ) : check.machines.length === 0 ? (
        <div className="hint" data-testid="team-index-machines">
          No machine has pushed anything you can read.
        </div>
      ) : (
        <table data-testid="team-index-machines">
          <thead>
            <tr>
              <th>Machine</th>
              <th>Files</th>
              <th>Last push</th>
            </tr>
          </thead>
          <tbody>
            {check.machines.map((machine) => (
              <tr key={machine.machine} data-testid="team-index-machine">
                <td title={machine.machine}>
                  {machine.name
                    ? `${machine.name}${machine.person ? ` (${machine.person})` : ''}`
                    : 'copied before machines were kept'}
                </td>
                <td>{machine.sources}</td>
                <td>{machine.lastPushAt === null ? '—' : formatWhen(machine.lastPushAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
