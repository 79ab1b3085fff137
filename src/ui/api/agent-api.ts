import { z } from 'zod';
import type { AgentTurnRequest, StreamEvent } from '../../../protocol/index.ts';
import { createHttpClient, jsonInit, type ApiClientOptions } from './http-client.ts';

const RuntimesSchema = z.object({
  runtimes: z.array(
    z.object({
      runtime: z.enum(['pi', 'codex']),
      installed: z.boolean(),
      bin: z.string().nullable(),
      installHint: z.string().nullable(),
      /** Codex: how to sign in to Weft's own Codex home. */
      signInHint: z.string().nullable().optional(),
      models: z.array(z.object({ id: z.string(), label: z.string() })),
    }),
  ),
});
export type AgentRuntimes = z.infer<typeof RuntimesSchema>['runtimes'];

const SandboxSchema = z.object({
  /** Turns run in bubblewrap on this machine. */
  confined: z.boolean(),
  /** Why not, when they do not. */
  reason: z.string().nullable(),
  /** The person agreed that this canvas's turns run unconfined (the server's record). */
  consented: z.boolean(),
});
export type AgentSandboxState = z.infer<typeof SandboxSchema>;

/** Typed client of `/api/agents/*` (C24). */
export interface AgentApi {
  runtimes(): Promise<AgentRuntimes>;
  /** Whether this canvas's turns run in a sandbox, and if not, whether the person agreed to run them unconfined. */
  sandbox(canvasId: string): Promise<AgentSandboxState>;
  /** The person agrees, once for this canvas, that its turns run unconfined; the server records it. */
  consentUnconfined(canvasId: string): Promise<AgentSandboxState>;
  /** The server's check of a working directory: its absolute path, or a coded refusal (`AGENT_CWD_*`). */
  checkFolder(path: string): Promise<string>;
  answer(turnId: string, requestId: string, decision: 'allow-once' | 'allow-turn' | 'deny'): Promise<void>;
  /** Stop: the runtime aborts its turn; the turn's stream goes on to `agent-finished`. */
  stop(turnId: string): Promise<void>;
  /** One turn as server-sent events; aborting the signal closes the stream, which stops the turn. */
  turn(body: AgentTurnRequest, signal: AbortSignal): AsyncGenerator<StreamEvent>;
}

const OkSchema = z.object({ ok: z.literal(true) });

export function createAgentApi(options: ApiClientOptions = {}): AgentApi {
  const http = createHttpClient(options);
  return {
    runtimes: async () => (await http.json('/api/agents', RuntimesSchema)).runtimes,
    sandbox: (canvasId) => http.json(`/api/agents/sandbox?canvasId=${encodeURIComponent(canvasId)}`, SandboxSchema),
    consentUnconfined: (canvasId) =>
      http.json('/api/agents/unconfined-consent', SandboxSchema, jsonInit('POST', { canvasId })),
    checkFolder: async (path) =>
      (await http.json('/api/agents/folder', z.object({ path: z.string() }), jsonInit('POST', { path }))).path,
    async answer(turnId, requestId, decision) {
      const path = `/api/agents/turns/${encodeURIComponent(turnId)}/approvals/${encodeURIComponent(requestId)}`;
      await http.json(path, OkSchema, jsonInit('POST', { decision }));
    },
    async stop(turnId) {
      await http.json(`/api/agents/turns/${encodeURIComponent(turnId)}/stop`, OkSchema, { method: 'POST' });
    },
    turn: (body, signal) => http.events('/api/agents/turn', { ...jsonInit('POST', body), signal }),
  };
}

/** The page's one client (same origin, cookie auth). */
export const agentApi = createAgentApi();
