import { formatWhen } from '../../core/index.ts';
import { useEffect, useState } from 'react';
import type { SessionArchiveHealth as Health } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** What the last verification found, in one sentence. */
function verdict(health: Health): string {
  const last = health.lastVerification;
  if (!last) return 'Never verified.';
  const when = `Verified ${formatWhen(last.verifiedAt)}: ${last.copies} copies`;
  const unverified = last.unverified > 0 ? `, ${last.unverified} unverified (kept before Weft hashed copies)` : '';
  if (!last.firstBad) return `${when} intact${unverified}.`;
  return `${when}, ${last.bad} bad${unverified}. First bad: ${last.firstBad.path} — ${last.firstBad.reason}.`;
}

/**
 * The archive's health under Settings → Session archive: copies, bytes, copies without a hash, and what the last
 * verification found. Verify runs it on the server (`POST /api/session-archive/verify`, as `weft archive verify`).
 */
export function SessionArchiveHealth() {
  const store = useWeftStore();
  const [health, setHealth] = useState<Health | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  // A refusal reads as its sentence; its code stays on hover, for a bug report.
  const [code, setCode] = useState<string | null>(null);

  useEffect(() => {
    store.api.sessionArchive().then(setHealth, (error: unknown) => setMessage(describeError(error).message));
  }, [store]);

  const verify = async () => {
    setBusy(true);
    setMessage(null);
    setCode(null);
    try {
      setHealth(await store.api.verifySessionArchive());
    } catch (error) {
      const described = describeError(error);
      setMessage(described.message);
      setCode(described.code);
    } finally {
      setBusy(false);
    }
  };
  const bad = (health?.lastVerification?.bad ?? 0) > 0;

  return (
    <div data-testid="archive-health">
      {health && (
        <p className="hint" data-testid="archive-health-usage">
          {health.copies} copies of {megabytes(health.bytes)} of session files ({megabytes(health.compressedBytes)}{' '}
          compressed) in <code>{health.directory}</code>
          {health.unhashed > 0 && `; ${health.unhashed} kept before Weft hashed copies (hashed when next copied)`}
        </p>
      )}
      {health && (
        <p
          className="hint"
          data-testid="archive-health-verdict"
          data-bad={bad || undefined}
          style={bad ? { color: 'var(--danger)' } : undefined}
        >
          {verdict(health)}
        </p>
      )}
      {message && (
        <p
          className="hint"
          data-testid="archive-health-message"
          data-code={code ?? undefined}
          title={code ?? undefined}
        >
          {message}
        </p>
      )}
      <div className="button-row">
        <button
          className="button"
          data-testid="archive-verify"
          disabled={busy || !health}
          onClick={() => void verify()}
        >
          {busy ? 'Verifying…' : 'Verify'}
        </button>
      </div>
    </div>
  );
}
