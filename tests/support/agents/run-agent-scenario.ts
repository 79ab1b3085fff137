import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  findSandbox,
  runCodexTurn,
  runPiTurn,
  runtimeInstallPaths,
  type TurnSandbox,
  type AgentEvent,
  type AgentRuntimeId,
  type AgentTurnResult,
  type ApprovalDecider,
  type ApprovalDecision,
  type ApprovalRequest,
  type GuardMode,
} from '../../../runtime/agents/index.ts';
import type { AgentScenario } from './agent-scenarios.ts';
import {
  configureCodex,
  configurePi,
  makeScratch,
  startScriptedModel,
  stdinRecordingWrapper,
  type RealClis,
  type Scratch,
} from './real-agent-harness.ts';

export interface ScenarioRun {
  scratch: Scratch;
  result: AgentTurnResult;
  events: AgentEvent[];
  asked: ApprovalRequest[];
  /** Every decision the gate reported (`onDecision`), the ones made without asking included. */
  decided: { requestId: string; decision: ApprovalDecision; by: ApprovalDecider }[];
  /** Every protocol line, in order, as the adapter wrote and read it. */
  lines: { direction: 'stdin' | 'stdout'; line: string }[];
  /** The bytes the CLI's stdin received, recorded by a `tee` in front of it. */
  stdinLog: string;
  /** The second turn, continuing (or forking) the first one's session, when a follow-up was given. */
  followUp: AgentTurnResult | null;
  /** Every request the scripted model received (its bodies hold the history each CLI sent). */
  modelRequests: string;
}

/**
 * How a scenario's turn is confined: in bubblewrap where this machine has it (the person granted the scratch's
 * `outside` folder on the node, so the cards decide there) unless `unconfined`; the canvas's network switch.
 */
export interface ScenarioConfinement {
  unconfined?: boolean;
  networkAccess?: boolean;
}

/**
 * The sandbox the server would give the turn: the CLI's install read-only, plus what the test harness itself
 * needs inside (the stdin-recording wrapper, read-only; its log, writable) and the granted `outside` folder.
 */
function scenarioSandbox(cli: string, wrapper: string, stdinLog: string, scratch: Scratch): TurnSandbox | null {
  const support = findSandbox(process.env);
  if (!('bwrap' in support)) return null;
  return {
    bwrap: support.bwrap,
    readOnly: [...runtimeInstallPaths(cli, scratch.env), wrapper],
    granted: [scratch.outside, stdinLog],
    // No Weft runs here: the scratch HOME (always guarded) holds where its home would be.
    guarded: { weftHome: join(scratch.home, '.weft'), sessionRoots: [] },
  };
}

/** One scenario against the real CLI and the scripted model, in a fresh scratch repository. */
export async function runAgentScenario(
  runtime: AgentRuntimeId,
  scenario: AgentScenario,
  clis: RealClis,
  guardMode: GuardMode = 'ask',
  message: string = scenario.prompt,
  followUp: string | null = null,
  followUpMode: 'continue' | 'fork' = 'continue',
  confinement: ScenarioConfinement = {},
): Promise<ScenarioRun> {
  const scratch = makeScratch(`weft-agent-${runtime}-`);
  const model = await startScriptedModel(scratch.root);
  try {
    scenario.setup?.(scratch.repo, scratch.root, scratch.home);
    model.addScenario({
      name: scenario.name,
      runners: [runtime],
      exchanges: scenario.exchanges(scratch.outside, scratch.home),
    });
    const base = model.base(runtime, scenario.name, scratch.repo);
    const stdinLog = join(scratch.root, 'stdin.log');
    // Made now: a file bound into the sandbox must exist before it starts.
    writeFileSync(stdinLog, '');
    const cli = runtime === 'pi' ? clis.pi : clis.codex;
    const wrapper = stdinRecordingWrapper(cli, stdinLog, scratch.root);
    const sandbox = confinement.unconfined ? null : scenarioSandbox(cli, wrapper, stdinLog, scratch);
    const networkAccess = confinement.networkAccess ?? false;
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const asked: ApprovalRequest[] = [];
    const decided: ScenarioRun['decided'] = [];
    const lines: ScenarioRun['lines'] = [];
    const decisions = [...scenario.decisions];
    const common = {
      cwd: scratch.repo,
      env: scratch.env,
      message,
      guardMode,
      approvalTimeoutMs: 20_000,
      signal: controller.signal,
      onEvent: (event: AgentEvent) => {
        events.push(event);
        if (scenario.abortOn?.(event)) setTimeout(() => controller.abort(), 300);
      },
      decide: (request: ApprovalRequest) => {
        asked.push(request);
        return Promise.resolve(decisions.shift() ?? 'deny');
      },
      onDecision: (request: ApprovalRequest, decision: ApprovalDecision, by: ApprovalDecider) =>
        decided.push({ requestId: request.requestId, decision, by }),
      onLine: (direction: 'stdin' | 'stdout', line: string) => lines.push({ direction, line }),
    };
    const piModel = runtime === 'pi' ? configurePi(scratch, base) : '';
    const codexHome = runtime === 'codex' ? configureCodex(scratch, base) : '';
    const turn = (text: string, session?: { continue: string } | { fork: string }) =>
      runtime === 'pi'
        ? runPiTurn({
            ...common,
            message: text,
            session,
            bin: wrapper,
            model: piModel,
            sandbox,
            networkAccess,
          })
        : runCodexTurn({
            ...common,
            message: text,
            session,
            bin: wrapper,
            codexHome,
            sandbox,
            networkAccess,
          });
    const result = await turn(message);
    const sessionRef = runtime === 'pi' ? result.sessionFile : result.sessionId;
    const second =
      followUp && sessionRef
        ? await turn(followUp, followUpMode === 'fork' ? { fork: sessionRef } : { continue: sessionRef })
        : null;
    return {
      scratch,
      result,
      events,
      asked,
      decided,
      lines,
      stdinLog: readFileSync(stdinLog, 'utf8'),
      followUp: second,
      modelRequests: readFileSync(model.requestLog, 'utf8'),
    };
  } finally {
    model.stop();
  }
}
