import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentEvent, AgentTurnResult, GuardMode } from './agent-events.ts';
import { ApprovalGate, type DecideApproval, type OnApprovalDecision } from './approval-gate.ts';
import { JsonLines } from './json-lines.ts';
import { watchAgentProcess } from './watch-agent-process.ts';
import { PiRpcProtocol, piDialogAnswer } from './pi-rpc-protocol.ts';
import { AgentRuntimeError } from './agent-runtime-error.ts';
import { withWorkspaceChanges } from './workspace-changes.ts';
import { sandboxedCommand, type TurnSandbox } from './sandboxed-command.ts';

/** The guard Weft loads into Pi, alone (`--no-extensions -e`). */
export const PI_GUARD_EXTENSION = fileURLToPath(new URL('./pi-guard-extension.mjs', import.meta.url));

export interface PiTurnOptions {
  bin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** What the runtime receives as the prompt: the context block and the question, or the question only. */
  message: string;
  guardMode: GuardMode;
  approvalTimeoutMs: number;
  /** bubblewrap around Pi, or null: unconfined (see agent-sandbox.ts and the README). */
  sandbox: TurnSandbox | null;
  /** The canvas's network switch: off, every shell command runs in a sandbox of its own with no network. */
  networkAccess: boolean;
  /** `provider/model` as Pi names it; Pi's default when absent. */
  model?: string;
  /** Continue this session file, or fork it into a new one. */
  session?: { continue: string } | { fork: string };
  onEvent: (event: AgentEvent) => void;
  decide: DecideApproval;
  /** Every decision of the turn, the gate's own included (turn-allow, timeout, abort). */
  onDecision?: OnApprovalDecision;
  signal?: AbortSignal;
  /** Every line written to or read from Pi, for recording transcripts. */
  onLine?: (direction: 'stdin' | 'stdout', line: string) => void;
}

function piArguments(options: PiTurnOptions): string[] {
  const args = ['--mode', 'rpc', '--no-extensions', '-e', PI_GUARD_EXTENSION, '--no-skills', '--no-prompt-templates'];
  args.push('--no-themes', '--no-context-files');
  if (options.model) args.push('--model', options.model);
  if (options.session && 'continue' in options.session) args.push('--session', options.session.continue);
  if (options.session && 'fork' in options.session) args.push('--fork', options.session.fork);
  return args;
}

/**
 * One prompt to `pi --mode rpc` in `cwd`, streamed through `onEvent`, ending when Pi reports `agent_end`; the files
 * its shell commands changed are added as one more footprint (see workspace-changes.ts).
 */
export function runPiTurn(options: PiTurnOptions): Promise<AgentTurnResult> {
  return withWorkspaceChanges(options.cwd, options.onEvent, () => runPiProcess(options));
}

/** Pi's own folder (models, settings, sessions): `PI_CODING_AGENT_DIR` or `~/.pi/agent`. */
export function piAgentDir(env: NodeJS.ProcessEnv): string {
  return env.PI_CODING_AGENT_DIR || join(env.HOME || homedir(), '.pi', 'agent');
}

function runPiProcess(options: PiTurnOptions): Promise<AgentTurnResult> {
  return new Promise((resolve, reject) => {
    const agentDir = piAgentDir(options.env);
    // Bound into the sandbox as it is: one made inside would vanish with the turn, sessions with it.
    if (options.sandbox) mkdirSync(agentDir, { recursive: true, mode: 0o700 });
    const { command, args } = sandboxedCommand(
      options.bin,
      piArguments(options),
      options.sandbox,
      options.cwd,
      options.env,
      { readOnly: [PI_GUARD_EXTENSION], writable: [agentDir] },
    );
    const cutNetwork = options.sandbox && !options.networkAccess ? { WEFT_SANDBOX_NET_CUT: options.sandbox.bwrap } : {};
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: {
        ...options.env,
        ...cutNetwork,
        WEFT_GUARD_MODE: options.guardMode,
        WEFT_GUARD_TIMEOUT_MS: String(options.approvalTimeoutMs),
        PI_OFFLINE: options.env.PI_OFFLINE ?? '1',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const protocol = new PiRpcProtocol();
    const gate = new ApprovalGate(options.decide, options.approvalTimeoutMs, options.signal, options.onDecision);
    let sessionId: string | null = null;
    let sessionFile: string | null = null;
    let settled = false;

    const send = (record: object, written?: () => void) => {
      const line = JSON.stringify(record);
      options.onLine?.('stdin', line);
      if (child.stdin.writable) child.stdin.write(line + '\n', (error) => !error && written?.());
    };
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', abort);
      child.stdin.end();
      // Pi leaves RPC mode when stdin closes; a process that lingers is stopped.
      const stopper = setTimeout(() => child.kill('SIGTERM'), 2000);
      child.once('exit', () => clearTimeout(stopper));
      if (error) return reject(error);
      const turn = protocol.turnStatus();
      resolve({
        ...turn,
        footprints: protocol.footprints,
        sessionId,
        sessionFile,
        approvals: gate.decisions,
      });
    };
    const abort = () => send({ type: 'abort' });
    options.signal?.addEventListener('abort', abort, { once: true });

    const lines = new JsonLines((record, line) => {
      options.onLine?.('stdout', line);
      const step = protocol.receive(record);
      for (const event of step.events) options.onEvent(event);
      if (step.response) {
        const { response } = step;
        if (response.command === 'get_state' && response.success) {
          const data = response.data as { sessionId?: unknown; sessionFile?: unknown } | undefined;
          sessionId = typeof data?.sessionId === 'string' ? data.sessionId : null;
          sessionFile = typeof data?.sessionFile === 'string' ? data.sessionFile : null;
          if (sessionId) options.onEvent({ type: 'session', sessionId, sessionFile });
          if (options.signal?.aborted) return finish(null);
          // The commit waits for this: only a prompt Pi's stdin took counts as received.
          send({ id: 'weft-prompt', type: 'prompt', message: options.message }, () =>
            options.onEvent({ type: 'prompt-sent' }),
          );
        } else if (!response.success && (response.command === 'prompt' || response.command === 'get_state')) {
          finish(new AgentRuntimeError('AGENT_REFUSED', `Pi refused ${response.command}: ${response.error ?? ''}`));
        }
      }
      if (step.dialog) {
        const { id, request } = step.dialog;
        if (!request) send(piDialogAnswer(id, null));
        else void gate.ask(request).then((decision) => send(piDialogAnswer(id, decision)));
      }
      if (step.finished) finish(null);
    });
    watchAgentProcess(child, lines, 'Pi', finish);
    send({ id: 'weft-state', type: 'get_state' });
  });
}
