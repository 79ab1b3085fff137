import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does to a stream's acceptance: pass it on (`honest`), put another hash in it (`other-hash`), or
 * send it — and the commit signal of the agent lane — twice (`twice`).
 */
export type TamperMode = 'honest' | 'other-hash' | 'twice';

export interface TamperingProxy {
  origin: string;
  mode: TamperMode;
  close(): Promise<void>;
}

const OTHER_HASH = 'f'.repeat(64);
/** The events that accept a dispatch (they carry the server's hash) and the agent lane's commit signal. */
const ACCEPTANCES = new Set(['request-accepted', 'agent-started', 'agent-prompt-delivered']);
const DROPPED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

function tamper(block: string, mode: TamperMode): string {
  const data = /^data: (.*)$/m.exec(block)?.[1];
  if (mode === 'honest' || data === undefined) return block;
  const event = JSON.parse(data) as { type: string; requestHash?: string; receivedHash?: string };
  if (!ACCEPTANCES.has(event.type)) return block;
  if (mode === 'twice') return block + block;
  if (event.type === 'request-accepted') event.requestHash = OTHER_HASH;
  else if (event.type === 'agent-started') event.receivedHash = OTHER_HASH;
  else return block;
  return `data: ${JSON.stringify(event)}\n\n`;
}

function forwarded(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (typeof value === 'string' && !DROPPED.has(name)) kept[name] = value;
  return kept;
}

/**
 * A loopback HTTP proxy in front of a real Weft server: every request goes through unchanged, and server-sent
 * events are passed on one by one, except the acceptance of a dispatch, which `mode` may alter. It stands for a
 * server (or anything between) that hands over something other than what the page hashed.
 */
export async function startTamperingProxy(target: string): Promise<TamperingProxy> {
  const proxy: TamperingProxy = { origin: '', mode: 'honest', close: async () => undefined };
  async function relay(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const controller = new AbortController();
    response.on('close', () => controller.abort());
    try {
      const upstream = await fetch(target + (request.url ?? '/'), {
        method: request.method ?? 'GET',
        headers: forwarded(request.headers),
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        signal: controller.signal,
      });
      const headers: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!DROPPED.has(name) && name !== 'content-encoding') headers[name] = value;
      });
      response.writeHead(upstream.status, headers);
      const streamed = (upstream.headers.get('content-type') ?? '').startsWith('text/event-stream');
      const decoder = new TextDecoder();
      let pending = '';
      for await (const chunk of upstream.body ?? []) {
        if (!streamed) {
          response.write(chunk);
          continue;
        }
        pending += decoder.decode(chunk, { stream: true });
        for (let end = pending.indexOf('\n\n'); end >= 0; end = pending.indexOf('\n\n')) {
          response.write(tamper(pending.slice(0, end + 2), proxy.mode));
          pending = pending.slice(end + 2);
        }
      }
      response.end(pending);
    } catch {
      response.destroy();
    }
  }
  const server = createServer((request, response) => void relay(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
