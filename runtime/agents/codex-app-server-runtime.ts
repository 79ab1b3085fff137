import { spawn } from 'node:child_process';
import type { AgentEvent, AgentTurnResult, GuardMode } from './agent-events.ts';
import { AgentRuntimeError } from './agent-runtime-error.ts';
import { ApprovalGate, type DecideApproval, type OnApprovalDecision } from './approval-gate.ts';
import {
  CodexAppServerProtocol,
  codexApprovalPolicy,
  codexSandboxPolicy,
  codexServerAnswer,
} from './codex-app-server-protocol.ts';
import { CODEX_INITIALIZE_PARAMS } from './codex-initialize.ts';
import { JsonLines } from './json-lines.ts';
import { withWorkspaceChanges } from './workspace-changes.ts';
import { gitTopLevel } from './workspace-snapshot.ts';
import { watchAgentProcess } from './watch-agent-process.ts';
import { sandboxedCommand, type TurnSandbox } from './sandboxed-command.ts';

export interface CodexTurnOptions {
  bin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** A CODEX_HOME Weft owns: Codex writes its config, trust marks and sessions there, never in ~/.codex. */
  codexHome: string;
  message: string;
  guardMode: GuardMode;
  approvalTimeoutMs: number;
  /** bubblewrap around Codex, or null: unconfined (see agent-sandbox.ts and the README). */
  sandbox: TurnSandbox | null;
  /** The canvas's network switch, for Codex's own command sandbox. */
  networkAccess: boolean;
  model?: string;
  /** Continue a thread (by id) or fork it into a new one. */
  session?: { continue: string } | { fork: string };
  onEvent: (event: AgentEvent) => void;
  decide: DecideApproval;
  /** Every decision of the turn, the gate's own included (turn-allow, timeout, abort). */
  onDecision?: OnApprovalDecision;
  signal?: AbortSignal;
  onLine?: (direction: 'stdin' | 'stdout', line: string) => void;
}

const INITIALIZE = 1;
const THREAD = 2;
const TURN = 3;
const INTERRUPT = 4;

/**
 * One turn through `codex app-server` (JSON-RPC over JSON lines), sandboxed to `cwd`; the files its shell commands
 * changed are added as one more footprint (see workspace-changes.ts).
 */
export async function runCodexTurn(options: CodexTurnOptions): Promise<AgentTurnResult> {
  const repository = await gitTopLevel(options.cwd);
  const untrusted = repository && repository !== options.cwd ? [options.cwd, repository] : [options.cwd];
  return withWorkspaceChanges(options.cwd, options.onEvent, () => runCodexProcess(options, untrusted));
}

function runCodexProcess(options: CodexTurnOptions, untrusted: readonly string[]): Promise<AgentTurnResult> {
  return new Promise((resolve, reject) => {
    const { command, args } = sandboxedCommand(options.bin, ['app-server'], options.sandbox, options.cwd, options.env, {
      readOnly: [],
      writable: [options.codexHome],
    });
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...options.env, CODEX_HOME: options.codexHome },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const protocol = new CodexAppServerProtocol(options.cwd);
    const gate = new ApprovalGate(options.decide, options.approvalTimeoutMs, options.signal, options.onDecision);
    const approvalPolicy = codexApprovalPolicy(options.guardMode);
    const sandboxPolicy = codexSandboxPolicy(options.cwd, options.networkAccess);
    let threadId: string | null = null;
    let sessionFile: string | null = null;
    let turnId: string | null = null;
    let interruptWanted = false;
    let settled = false;

    const send = (record: object, written?: () => void) => {
      const line = JSON.stringify(record);
      options.onLine?.('stdin', line);
      if (child.stdin.writable) child.stdin.write(line + '\n', (error) => !error && written?.());
    };
    const interrupt = () => {
      interruptWanted = true;
      if (threadId && turnId) send({ id: INTERRUPT, method: 'turn/interrupt', params: { threadId, turnId } });
    };
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', interrupt);
      child.stdin.end();
      const stopper = setTimeout(() => child.kill('SIGTERM'), 2000);
      child.once('exit', () => clearTimeout(stopper));
      if (error) return reject(error);
      resolve({
        ...protocol.turnStatus(),
        footprints: protocol.footprints,
        sessionId: threadId,
        sessionFile,
        approvals: gate.decisions,
      });
    };
    options.signal?.addEventListener('abort', interrupt, { once: true });

    const threadParams = {
      cwd: options.cwd,
      approvalPolicy,
      sandbox: 'workspace-write',
      config: {
        // Codex would mark the project trusted in its home and then load the repository's own .codex/config.toml
        // (MCP servers, hooks): untrusted here, for the folder and its repository, it loads neither.
        projects: Object.fromEntries(untrusted.map((folder) => [folder, { trust_level: 'untrusted' }])),
        sandbox_workspace_write: {
          writable_roots: [options.cwd],
          network_access: options.networkAccess,
          exclude_tmpdir_env_var: true,
          exclude_slash_tmp: true,
        },
      },
      ...(options.model ? { model: options.model } : {}),
    };
    const startThread = () => {
      if (options.session && 'continue' in options.session)
        send({ id: THREAD, method: 'thread/resume', params: { threadId: options.session.continue, ...threadParams } });
      else if (options.session && 'fork' in options.session)
        send({ id: THREAD, method: 'thread/fork', params: { threadId: options.session.fork, ...threadParams } });
      else send({ id: THREAD, method: 'thread/start', params: threadParams });
    };

    const lines = new JsonLines((record, line) => {
      options.onLine?.('stdout', line);
      const step = protocol.receive(record);
      for (const event of step.events) options.onEvent(event);
      if (step.response) {
        const { id, result, error } = step.response;
        if (error && id !== INTERRUPT) return finish(new AgentRuntimeError('AGENT_REFUSED', `Codex refused: ${error}`));
        if (id === INITIALIZE) {
          send({ method: 'initialized' });
          startThread();
        } else if (id === THREAD) {
          const thread = (result as { thread?: { id?: unknown; path?: unknown } } | undefined)?.thread;
          threadId = typeof thread?.id === 'string' ? thread.id : null;
          sessionFile = typeof thread?.path === 'string' ? thread.path : null;
          if (!threadId) return finish(new AgentRuntimeError('AGENT_PROTOCOL', 'Codex started no thread'));
          options.onEvent({ type: 'session', sessionId: threadId, sessionFile });
          if (options.signal?.aborted) return finish(null);
          send(
            {
              id: TURN,
              method: 'turn/start',
              params: {
                threadId,
                input: [{ type: 'text', text: options.message, text_elements: [] }],
                cwd: options.cwd,
                approvalPolicy,
                sandboxPolicy,
                ...(options.model ? { model: options.model } : {}),
              },
            },
            // The commit waits for this: only a prompt Codex's stdin took counts as received.
            () => options.onEvent({ type: 'prompt-sent' }),
          );
        } else if (id === TURN) {
          const turn = (result as { turn?: { id?: unknown } } | undefined)?.turn;
          turnId = typeof turn?.id === 'string' ? turn.id : null;
          if (interruptWanted) interrupt();
        }
      }
      if (step.serverRequest) {
        const { id, method, request } = step.serverRequest;
        if (!request) send(codexServerAnswer(id, method, null));
        else void gate.ask(request).then((decision) => send(codexServerAnswer(id, method, decision)));
      }
      if (step.finished) finish(null);
    });
    watchAgentProcess(child, lines, 'Codex', finish);
    send({
      id: INITIALIZE,
      method: 'initialize',
      params: CODEX_INITIALIZE_PARAMS,
    });
  });
}
