import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  runCodexTurn,
  runPiTurn,
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

/** One scenario against the real CLI and the scripted model, in a fresh scratch repository. */
export async function runAgentScenario(
  runtime: AgentRuntimeId,
  scenario: AgentScenario,
  clis: RealClis,
  guardMode: GuardMode = 'ask',
  message: string = scenario.prompt,
  followUp: string | null = null,
  followUpMode: 'continue' | 'fork' = 'continue',
): Promise<ScenarioRun> {
  const scratch = makeScratch(`weft-agent-${runtime}-`);
  const model = await startScriptedModel(scratch.root);
  try {
    scenario.setup?.(scratch.repo, scratch.root);
    model.addScenario({ name: scenario.name, runners: [runtime], exchanges: scenario.exchanges(scratch.outside) });
    const base = model.base(runtime, scenario.name, scratch.repo);
    const stdinLog = join(scratch.root, 'stdin.log');
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
            bin: stdinRecordingWrapper(clis.pi, stdinLog, scratch.root),
            model: piModel,
          })
        : runCodexTurn({
            ...common,
            message: text,
            session,
            bin: stdinRecordingWrapper(clis.codex, stdinLog, scratch.root),
            codexHome,
            networkAccess: false,
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
