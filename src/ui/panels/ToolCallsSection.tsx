import { plural } from '../../core/index.ts';
import type { Version } from '../../../protocol/index.ts';

/** C35: the tool calls a version's model made, each collapsible to what it asked and what it was given back. */
export function ToolCallsSection({ version }: { version: Version }) {
  const calls = version.toolCalls ?? [];
  if (calls.length === 0) return null;
  return (
    <details className="tool-calls" data-testid="tool-calls">
      <summary>{plural(calls.length, 'tool call')} while answering</summary>
      {calls.map((call) => (
        <details key={call.callId} className="tool-call" data-testid="tool-call" data-status={call.status}>
          <summary>
            <code>{call.tool}</code> {call.status === 'ok' ? '' : <span className="badge stale">{call.code}</span>}
          </summary>
          <div className="hint">Asked</div>
          <pre data-testid="tool-call-input">{call.input}</pre>
          <div className="hint">Given back to the model</div>
          <pre data-testid="tool-call-output">{call.output}</pre>
        </details>
      ))}
    </details>
  );
}
