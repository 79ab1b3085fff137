import { describe, expect, it } from 'vitest';
import { codexSignInFailure } from './codex-sign-in.ts';

describe("Codex's sign-in failure", () => {
  it('a 401 becomes agent-codex-sign-in with the exact login command for Weft’s Codex home', () => {
    const failure = codexSignInFailure(
      'unexpected status 401 Unauthorized: Missing bearer',
      '/home/ann/.weft/agents/codex-home',
    );
    expect(failure?.code).toBe('agent-codex-sign-in');
    expect(failure?.message).toContain('CODEX_HOME=/home/ann/.weft/agents/codex-home codex login');
    expect(failure?.message).toContain('OPENAI_API_KEY');
  });

  it('other failures keep their own code', () => {
    expect(codexSignInFailure('stream disconnected before completion', '/h')).toBeNull();
    expect(codexSignInFailure(null, '/h')).toBeNull();
  });
});
