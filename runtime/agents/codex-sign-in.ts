/**
 * Weft runs Codex with a CODEX_HOME of its own and does not copy the person's auth.json there, so Codex starts
 * signed out: the person signs in once into that home (or gives Codex a key in the environment).
 */
export function codexSignInHint(codexHome: string): string {
  return `Sign Codex in for Weft: CODEX_HOME=${codexHome} codex login (or set OPENAI_API_KEY, or your provider's key, before starting Weft).`;
}

// What Codex says when it has no usable credentials (HTTP 401, a missing login or key).
const SIGNED_OUT =
  /\b401\b|unauthori[sz]ed|not logged in|log ?in required|please (log|sign) in|missing (an )?api key|invalid api key|authentication/i;

/** The coded sign-in failure for what Codex reported, or null when the failure is about something else. */
export function codexSignInFailure(
  message: string | null,
  codexHome: string,
): { code: string; message: string } | null {
  if (!message || !SIGNED_OUT.test(message)) return null;
  return {
    code: 'agent-codex-sign-in',
    message: `Codex is not signed in (${message.slice(0, 300)}). ${codexSignInHint(codexHome)}`,
  };
}
