import { z } from 'zod';
import type { AgentTurnRequest, StreamEvent } from '../../../protocol/index.ts';
import { ApiErrorSchema } from '../../../protocol/index.ts';
import { readJson } from './api-client.ts';
import { ApiClientError } from './api-error.ts';
import { readServerSentEvents } from './read-server-sent-events.ts';

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

/** Typed client of `/api/agents/*` (same origin, cookie auth). */
export const agentApi = {
  async runtimes(): Promise<AgentRuntimes> {
    const response = await fetch('/api/agents', { credentials: 'same-origin' });
    return (await readJson(response, RuntimesSchema)).runtimes;
  },
  /** The server's check of a working directory: its absolute path, or a coded refusal (`AGENT_CWD_*`). */
  async checkFolder(path: string): Promise<string> {
    const response = await fetch('/api/agents/folder', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path }),
    });
    return (await readJson(response, z.object({ path: z.string() }))).path;
  },
  async answer(turnId: string, requestId: string, decision: 'allow-once' | 'allow-turn' | 'deny'): Promise<void> {
    const response = await fetch(
      `/api/agents/turns/${encodeURIComponent(turnId)}/approvals/${encodeURIComponent(requestId)}`,
      {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision }),
      },
    );
    await readJson(response, z.object({ ok: z.literal(true) }));
  },
  /** Stop: the runtime aborts its turn; the turn's stream goes on to `agent-finished`. */
  async stop(turnId: string): Promise<void> {
    const response = await fetch(`/api/agents/turns/${encodeURIComponent(turnId)}/stop`, {
      method: 'POST',
      credentials: 'same-origin',
    });
    await readJson(response, z.object({ ok: z.literal(true) }));
  },
  /** One turn as server-sent events; aborting the signal closes the stream, which stops the turn. */
  async *turn(body: AgentTurnRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    let response: Response;
    try {
      response = await fetch('/api/agents/turn', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new ApiClientError('aborted', 'Stopped.');
      throw new ApiClientError('network', `Could not reach the local server (${(error as Error).message}).`);
    }
    if (!response.ok || !response.body) {
      const parsed = ApiErrorSchema.safeParse(await response.json().catch(() => null));
      if (parsed.success) throw new ApiClientError(parsed.data.error.code, parsed.data.error.message, response.status);
      throw new ApiClientError('http-' + response.status, `The server answered ${response.status}.`, response.status);
    }
    yield* readServerSentEvents(response.body);
  },
};
