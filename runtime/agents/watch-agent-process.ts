import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { AgentRuntimeError } from './agent-runtime-error.ts';
import type { JsonLines } from './json-lines.ts';

/**
 * The process side every runtime shares: stdout feeds the JSON-lines reader, the last 4,000 characters of stderr
 * are kept for the error, and a failed start or an exit before the turn ended finishes the turn with a coded error.
 */
export function watchAgentProcess(
  child: ChildProcessWithoutNullStreams,
  lines: JsonLines,
  name: string,
  finish: (error: Error | null) => void,
): void {
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  // A runtime that closed its stdin makes the next write fail (EPIPE); unheard, that error would crash the server.
  child.stdin.on('error', (error) =>
    finish(
      new AgentRuntimeError('AGENT_EXITED', `${name} stopped reading its input before the turn ended: ${stderr}`, {
        cause: error,
      }),
    ),
  );
  child.once('error', (error) =>
    finish(new AgentRuntimeError('AGENT_NOT_STARTED', `${name} could not start: ${error.message}`, { cause: error })),
  );
  child.once('exit', (code, signal) => {
    lines.end();
    finish(
      new AgentRuntimeError('AGENT_EXITED', `${name} exited (${code ?? signal}) before the turn ended: ${stderr}`),
    );
  });
}
