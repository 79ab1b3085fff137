import { useState } from 'react';
import type { ProviderTestResponse } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';

/**
 * "Test connection" on a saved provider row: one short request to its first model through the server, then what
 * came back (the model and the time it took, or the failure's code and message). A draft must be saved first,
 * because the server tests what it stored, with the key it holds.
 */
export function TestConnection({ providerId, saved }: { providerId: string; saved: boolean }) {
  const store = useWeftStore();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ProviderTestResponse | { ok: false; code: string; message: string } | null>(
    null,
  );
  const run = async () => {
    setTesting(true);
    setResult(null);
    try {
      setResult(await store.api.testProvider(providerId));
    } catch (error) {
      setResult({ ok: false, ...describeError(error) });
    } finally {
      setTesting(false);
    }
  };
  return (
    <>
      <button
        className="button small"
        data-testid="provider-test"
        disabled={!saved || testing}
        title={saved ? 'Send one short request to this provider' : 'Save the provider first'}
        onClick={() => void run()}
      >
        {testing ? 'Testing…' : 'Test connection'}
      </button>
      {result && (
        <span
          className={result.ok ? 'hint test-ok' : 'hint test-failed'}
          data-testid="provider-test-result"
          data-ok={result.ok}
          data-code={result.code ?? undefined}
          title={result.code ?? undefined}
        >
          {/* The sentence for the person; the code an ask would get stays on hover, for a bug report. */}
          {result.ok && 'modelId' in result
            ? `✓ ${result.modelId} answered in ${result.latencyMs} ms`
            : `✗ ${result.message ?? ''}`}
        </span>
      )}
    </>
  );
}
