/** A Weft server running for this home, as `server.json` names it and it answers: what a command should go through. */
export interface LiveServer {
  origin: string;
  token: string;
}

/**
 * The server `server.json` names, when it answers its health route with that token; null when none runs. A command
 * that writes what a running server also writes goes through it, so one process serialises the writes.
 */
export async function liveServer(
  info: { origin: string; token: string; pid: number } | null,
): Promise<LiveServer | null> {
  // Only a loopback origin is ever written to server.json; anything else is not ours to call.
  if (!info || !/^http:\/\/127\.0\.0\.1:\d+$/.test(info.origin)) return null;
  try {
    const response = await fetch(`${info.origin}/api/health`, {
      headers: { authorization: `Bearer ${info.token}` },
      signal: AbortSignal.timeout(1500),
    });
    return response.ok ? { origin: info.origin, token: info.token } : null;
  } catch {
    return null;
  }
}
