import { useEffect, useState } from 'react';
import type { TeamIndexCheck, TeamIndexSettings as Saved } from '../../../protocol/index.ts';
import { formatWhen, plural } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';

/**
 * Issue 32.4: a team's why index on PostgreSQL. The connection string is typed here and stored by the server with
 * the keys; it never comes back (the card shows the server as `postgres://host:port/database`). "Test connection"
 * says what this person's role can read and the machines that pushed it, each with its last push.
 */
export function TeamIndexSettings() {
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
  const save = (next: string | null) =>
    run(async () => {
      setSaved(await store.api.saveTeamIndex({ url: next }));
      setUrl('');
      setCheck(null);
      setMessage(next ? 'Saved' : 'Forgotten');
    });
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
        <span>Connection string {saved?.configured ? '(saved — type to replace)' : ''}</span>
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
          className="button primary"
          data-testid="team-index-save"
          disabled={busy || !url.trim()}
          onClick={() => void save(url.trim())}
        >
          Save
        </button>
        <button
          className="button"
          data-testid="team-index-test"
          disabled={busy || !saved?.configured}
          onClick={() => void test()}
        >
          {busy ? 'Testing…' : 'Test connection'}
        </button>
        {saved?.configured && (
          <button className="button" data-testid="team-index-forget" disabled={busy} onClick={() => void save(null)}>
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
                <td>{machine.machine}</td>
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
