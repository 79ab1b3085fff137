import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import express, { type Router } from 'express';
import {
  AgentApprovalAnswerSchema,
  AgentFolderCheckSchema,
  AgentTurnRequestSchema,
  AgentUnconfinedConsentSchema,
  type AgentTurnRequest,
  type AgentVersion,
  type CanvasNode,
  type GuardModeValue,
  WeftError,
  isWeftError,
} from '../../protocol/index.ts';
import {
  AgentRuntimeError,
  changedFiles,
  checkWorkingDirectory,
  codexSignInFailure,
  codexSignInHint,
  findAgentBin,
  findSandbox,
  INSTALL_HINT,
  listCodexModels,
  listPiModels,
  type AgentModel,
  prepareCodexHome,
  runCodexTurn,
  runPiTurn,
  runtimeInstallPaths,
  type AgentEvent,
  type ApprovalDecision,
  type ApprovalRequest,
  type DecideApproval,
  type OnApprovalDecision,
  type SandboxSupport,
  UnconfinedConsent,
  removeMaterialsFolder,
  writeMaterialsFolder,
} from '../../runtime/agents/index.ts';
import { resolveSessionRoots } from '../../runtime/atlas/index.ts';
import { jsonBody } from '../read-body.ts';
import { openDispatch } from '../dispatch-handshake.ts';
import type { ServerContext } from '../server-context.ts';
import { openEventStream } from '../sse.ts';
import { validateBody } from '../validate-body.ts';
import { AgentTurns } from './agent-turns.ts';

export interface AgentRouteOptions {
  /** The environment the runtimes start with (their own keys and config live there); the server's by default. */
  env?: NodeJS.ProcessEnv;
  /** Codex's home, owned by Weft; `<WEFT_HOME>/agents/codex-home` by default (an Atlas session root). */
  codexHome?: string;
  approvalTimeoutMs?: number;
  /** Auto-review lets the judge allow a call at or above this probability; below it the person is asked. */
  autoReviewThreshold?: number;
  /** Folders no working directory may be in; the Atlas's session roots (read at each check) by default. */
  sessionRoots?: () => readonly string[];
  /** Whether turns run in bubblewrap here; `findSandbox` by default (tests give the unconfined case). */
  sandboxSupport?: () => SandboxSupport;
}

/**
 * Folders the person lets every agent turn reach besides its working directory (read-write in the sandbox):
 * `WEFT_AGENT_GRANTED_PATHS`, separated like PATH. The server's setting, never a request's.
 */
function grantedPaths(env: NodeJS.ProcessEnv): string[] {
  return (env.WEFT_AGENT_GRANTED_PATHS ?? '').split(delimiter).filter(Boolean);
}

function describe(request: ApprovalRequest): string {
  return [
    `A coding agent asks to run the tool ${request.toolName} (${request.reason}).`,
    request.leaves ? `It reaches outside its working directory: ${request.leaves}` : '',
    `Arguments: ${JSON.stringify(request.args).slice(0, 4000)}`,
    'Should it be allowed?',
  ].join('\n');
}

/**
 * C24 dispatch: `GET /api/agents` (installed runtimes), `POST /api/agents/turn` (one turn streamed as SSE; the
 * text's hash is checked before the runtime starts; closing the stream is Stop) and
 * `POST /api/agents/turns/:turnId/approvals/:requestId` (a person's answer on a card) and
 * `POST /api/agents/turns/:turnId/stop` (Stop, with the stream kept open for the turn's end).
 */
export function agentRoute(context: ServerContext, options: AgentRouteOptions = {}): Router {
  const router = express.Router();
  const env = options.env ?? process.env;
  const codexHome = options.codexHome ?? join(context.home, 'agents', 'codex-home');
  const approvalTimeoutMs = options.approvalTimeoutMs ?? 120_000;
  const threshold = options.autoReviewThreshold ?? 0.8;
  const turns = new AgentTurns();
  const sessionRoots = options.sessionRoots ?? (() => resolveSessionRoots(process.env, homedir(), context.home).roots);
  const checkedCwd = (cwd: string) => checkWorkingDirectory(cwd, sessionRoots(), context.home);
  const sandboxSupport = options.sandboxSupport ?? (() => findSandbox(env));
  const consent = new UnconfinedConsent(context.home);
  const sandboxState = async (canvasId: string | undefined) => {
    const support = sandboxSupport();
    return {
      confined: 'bwrap' in support,
      reason: 'unconfined' in support ? support.unconfined : null,
      consented: canvasId ? await consent.has(canvasId) : false,
    };
  };

  // Listing a runtime's models starts it; a listing is reused for a few minutes.
  const listings = new Map<string, { at: number; models: Promise<AgentModel[]> }>();
  const modelsOf = (runtime: 'pi' | 'codex', bin: string): Promise<AgentModel[]> => {
    const cached = listings.get(`${runtime}:${bin}`);
    if (cached && Date.now() - cached.at < 5 * 60_000) return cached.models;
    const models =
      runtime === 'pi' ? listPiModels(bin, env) : listCodexModels(bin, env, prepareCodexHome(codexHome, env));
    listings.set(`${runtime}:${bin}`, { at: Date.now(), models });
    return models;
  };

  router.get('/agents', async (_request, response) => {
    const runtimes = await Promise.all(
      (['pi', 'codex'] as const).map(async (runtime) => {
        const bin = findAgentBin(runtime, env);
        const models = bin ? await modelsOf(runtime, bin) : [];
        const installHint = bin ? null : INSTALL_HINT[runtime];
        // Weft's Codex home starts signed out (the person's auth.json is not copied): the picker says how to sign in.
        const signInHint = runtime === 'codex' ? codexSignInHint(codexHome) : null;
        return { runtime, installed: bin !== null, bin, installHint, signInHint, models };
      }),
    );
    response.json({ runtimes });
  });

  // Whether this canvas's turns run in a sandbox, and if not, whether the person agreed (the picker asks once).
  router.get('/agents/sandbox', async (request, response) => {
    const canvasId = typeof request.query.canvasId === 'string' ? request.query.canvasId : undefined;
    response.json(await sandboxState(canvasId));
  });

  router.post('/agents/unconfined-consent', jsonBody(4096), async (request, response) => {
    const { canvasId } = validateBody(AgentUnconfinedConsentSchema, request.body);
    await consent.give(canvasId);
    response.json(await sandboxState(canvasId));
  });

  // The working directory a person typed (or picked): the same check a turn makes, so the field can say why.
  router.post('/agents/folder', jsonBody(8192), async (request, response) => {
    const { path } = validateBody(AgentFolderCheckSchema, request.body);
    response.json({ path: await checkedCwd(path) });
  });

  router.post('/agents/turns/:turnId/approvals/:requestId', jsonBody(4096), (request, response) => {
    const { decision } = validateBody(AgentApprovalAnswerSchema, request.body);
    if (!turns.answer(String(request.params.turnId), String(request.params.requestId), decision))
      throw new WeftError(
        'approval-closed',
        'This card is no longer open (answered, timed out, or the turn ended).',
        409,
      );
    response.json({ ok: true });
  });

  // Stop: the runtime aborts its turn and the stream goes on to `agent-finished` (footprints, changed files).
  router.post('/agents/turns/:turnId/stop', (request, response) => {
    if (!turns.stop(String(request.params.turnId)))
      throw new WeftError('agent-turn-over', 'This agent turn is not running (it ended, or never started).', 409);
    response.json({ ok: true });
  });

  router.post('/agents/turn', jsonBody(8 * 1024 * 1024), async (request, response) => {
    const body: AgentTurnRequest = validateBody(AgentTurnRequestSchema, request.body);
    const stored = await storedAgentTurn(context, body);
    const cwd = await checkedCwd(stored.cwd);
    // A granted folder passes the working directory's own checks: never a session root or Weft's home.
    const granted = await Promise.all([...grantedPaths(env), ...stored.grants].map(checkedCwd));
    const support = sandboxSupport();
    // No sandbox here: only a canvas whose person agreed (recorded above, by this server) runs unconfined.
    if (!('bwrap' in support) && !(body.canvasId && (await consent.has(body.canvasId))))
      throw new AgentRuntimeError(
        'AGENT_UNCONFINED_CONSENT',
        `Agents run unconfined here (${support.unconfined}): agree once for this canvas on the node first.`,
      );
    const bin = findAgentBin(body.runtime, env);
    if (!bin) throw new AgentRuntimeError('AGENT_NOT_INSTALLED', INSTALL_HINT[body.runtime]);
    const stream = openEventStream(response);
    const turnId = randomUUID();
    const dispatch = openDispatch(stream, context.hash, {
      to: 'runtime',
      text: body.text,
      clientHash: body.receivedHash,
      turnId,
    });
    if (!dispatch) return;
    const receivedHash = dispatch.serverHash;
    let materials: string | null;
    try {
      materials = await writeMaterialsFolder(cwd, body.nodeId, body.materials);
    } catch (error) {
      stream.send({
        type: 'agent-failed',
        code: isWeftError(error) ? error.code : 'AGENT_MATERIALS_INVALID',
        message: `The materials could not be copied; nothing was handed to the runtime. ${error instanceof Error ? error.message : String(error)}`,
      });
      return stream.end();
    }
    const controller = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) controller.abort();
    });
    turns.begin(turnId, controller);
    dispatch.accept();

    const decide: DecideApproval = async (asked, signal) => {
      if (stored.guardMode === 'auto-review') {
        const verdict = await context.judge.decide({
          kind: 'agent-approval',
          prompt: describe(asked),
          options: ['allow', 'deny'],
        });
        if (!verdict.fallback && (verdict.probabilities.allow ?? 0) >= threshold)
          return { decision: 'allow-once', by: 'judge' };
      }
      stream.send({ type: 'agent-approval-requested', turnId, request: { ...asked, args: asked.args ?? null } });
      const decision = await turns.wait(turnId, asked.requestId, signal).catch((): ApprovalDecision => 'deny');
      return { decision, by: signal.aborted ? 'gate' : 'person' };
    };
    // Every decision, the gate's own included (turn-allow, timeout, abort), reaches the UI and so the event log.
    const onDecision: OnApprovalDecision = (asked, decision, by) =>
      stream.send({
        type: 'agent-approval-decided',
        requestId: asked.requestId,
        toolName: asked.toolName,
        leaves: asked.leaves,
        decision,
        by,
      });
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'text-delta') stream.send({ type: 'text-delta', delta: event.text });
      else if (event.type === 'prompt-sent') stream.send({ type: 'agent-prompt-delivered', receivedHash });
      else if (event.type === 'session')
        stream.send({ type: 'agent-session', sessionId: event.sessionId, sessionFile: event.sessionFile });
      else if (event.type === 'tool-start')
        stream.send({ type: 'agent-tool-started', toolCallId: event.toolCallId, toolName: event.toolName });
      else if (event.type === 'tool-end')
        stream.send({ type: 'agent-footprint', footprint: { ...event.footprint, args: event.footprint.args ?? null } });
    };
    const sandbox =
      'bwrap' in support
        ? {
            bwrap: support.bwrap,
            readOnly: [...runtimeInstallPaths(bin, env), ...(materials ? [materials] : [])],
            granted,
            guarded: { weftHome: context.home, sessionRoots: sessionRoots() },
          }
        : null;
    const common = {
      bin,
      cwd,
      env,
      sandbox,
      networkAccess: stored.networkAccess,
      message: body.text,
      guardMode: stored.guardMode,
      approvalTimeoutMs,
      model: body.model,
      session: stored.session,
      onEvent,
      decide,
      onDecision,
      signal: controller.signal,
    };
    const startedAt = Date.now();
    try {
      const result =
        body.runtime === 'pi'
          ? await runPiTurn(common)
          : await runCodexTurn({
              ...common,
              codexHome: prepareCodexHome(codexHome, env),
            });
      const signedOut = body.runtime === 'codex' ? codexSignInFailure(result.error, codexHome) : null;
      if (signedOut && result.status === 'failed') stream.send({ type: 'agent-failed', ...signedOut });
      stream.send({
        type: 'agent-finished',
        status: result.status,
        text: result.text,
        // A sign-in failure was already sent, coded, with the command that fixes it.
        error: signedOut && result.status === 'failed' ? null : result.error,
        changedFiles: changedFiles(result.footprints, cwd),
      });
      context.logger.info('agent-turn', {
        runtime: body.runtime,
        status: result.status,
        footprints: result.footprints.length,
        approvals: result.approvals.length,
        ms: Date.now() - startedAt,
      });
    } catch (error) {
      const code = isWeftError(error) ? error.code : 'AGENT_EXITED';
      const message = error instanceof Error ? error.message : String(error);
      const signedOut = body.runtime === 'codex' ? codexSignInFailure(message, codexHome) : null;
      stream.send({ type: 'agent-failed', ...(signedOut ?? { code, message }) });
    } finally {
      turns.end(turnId);
      // The runtime has exited (or is being stopped): its copies of the materials leave the person's project.
      await removeMaterialsFolder(materials).catch((error: unknown) =>
        context.logger.warn('agent-materials-left', {
          message: error instanceof Error ? error.message : String(error),
        }),
      );
      stream.end();
    }
  });
  return router;
}

/** How loose each guard mode is: a body may ask for one at most as loose as the saved mode (`allow` lets all). */
const GUARD_LOOSENESS = { ask: 0, 'auto-review': 1, allow: 2 } satisfies Record<GuardModeValue, number>;

/** What one agent turn runs with, every part read from the saved canvas (issue 27.3), never taken from the body. */
interface StoredAgentTurn {
  /** The canvas's saved working directory (the body's must be the same). */
  cwd: string;
  guardMode: GuardModeValue;
  networkAccess: boolean;
  /** The folders the saved node grants its turns. */
  grants: string[];
  /** A session a version of the saved canvas recorded, to continue or fork. */
  session: AgentTurnRequest['session'];
}

/**
 * Reads the saved canvas once and decides the turn from it. The app saves before a turn, so a body that disagrees
 * is a hostile or stale client, refused with 409 before anything is written: `agent-target-unsaved` (no saved
 * canvas, no question `nodeId` on it, no or another working directory), `agent-guard-unsaved` (a looser guard than
 * saved), `agent-network-unsaved` (the network a saved canvas does not grant), `agent-session-unrecorded` (a session
 * to continue that no version of the node recorded, or to fork that no version of the canvas did). A body may ask
 * for a stricter guard or for no network.
 */
async function storedAgentTurn(context: ServerContext, body: AgentTurnRequest): Promise<StoredAgentTurn> {
  const stored = body.canvasId ? await context.canvases.read(body.canvasId).catch(() => null) : null;
  const node = stored?.document.nodes.find((each) => each.id === body.nodeId);
  if (!stored || node?.kind !== 'question')
    throw new WeftError(
      'agent-target-unsaved',
      'An agent turn runs on a question of a saved canvas: save the canvas first.',
      409,
    );
  const canvas = stored.document.canvas;
  if (canvas.workingDirectory === null || canvas.workingDirectory !== body.cwd)
    throw new WeftError(
      'agent-target-unsaved',
      "The working directory is read from the saved canvas, and it differs there: save the canvas's agent settings first.",
      409,
    );
  const saved = canvas.agentGuard ?? 'ask';
  if (GUARD_LOOSENESS[body.guardMode] > GUARD_LOOSENESS[saved])
    throw new WeftError(
      'agent-guard-unsaved',
      `The saved canvas guards agent turns with "${saved}"; a turn may ask for a stricter mode, never "${body.guardMode}".`,
      409,
    );
  if (body.networkAccess && canvas.agentNetwork !== true)
    throw new WeftError(
      'agent-network-unsaved',
      "The network switch is read from the saved canvas, and it is off there: save the canvas's agent settings first.",
      409,
    );
  if (body.session) {
    // Pi names a session by its file, Codex by its thread id (as agent-plan.ts hands them back).
    const wanted = 'continue' in body.session ? body.session.continue : body.session.fork;
    const ref = (agent: AgentVersion) => (agent.runtime === 'pi' ? agent.sessionFile : agent.sessionId);
    const recorded = (each: CanvasNode) =>
      each.kind === 'question' &&
      each.versions.some((version) => version.agent?.runtime === body.runtime && ref(version.agent) === wanted);
    const found = 'continue' in body.session ? recorded(node) : stored.document.nodes.some(recorded);
    if (!found)
      throw new WeftError(
        'agent-session-unrecorded',
        'continue' in body.session
          ? 'A turn continues only a session a version of this node recorded.'
          : 'A turn forks only a session a version of this canvas recorded.',
        409,
      );
  }
  return {
    cwd: canvas.workingDirectory,
    guardMode: body.guardMode,
    networkAccess: body.networkAccess,
    grants: node.agentGrants ?? [],
    session: body.session,
  };
}
