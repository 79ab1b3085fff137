import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { askWhy, setWhyIncludeRead } from './atlas-loading.ts';
import { atlasStore } from './atlas-state.ts';

// The Why panel's loading against a real server over the real fixture sessions. The page's same-origin
// fetch is routed to the test server; each request can be held back to play a slow or failing network.
const FIXTURES = new URL('../../../tests/fixtures/real-sessions/', import.meta.url).pathname;
const PI_TODO = '/tmp/realsessions/out/pi/multi-turn/repo/TODO.md';
const CODEX_TODO = '/tmp/realsessions/out/codex/multi-turn/repo/TODO.md';

let server: TestServer;
const savedRoots = process.env.WEFT_SESSION_ROOTS;
const realFetch = globalThis.fetch;
let requested: string[] = [];
/** Requests whose target is listed here wait until released (true: answer, false: the network fails). */
const held = new Map<string, Promise<boolean>>();

beforeAll(async () => {
  process.env.WEFT_SESSION_ROOTS = FIXTURES;
  server = await startTestServer();
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    requested.push(path);
    const target = new URL(path, server.origin).searchParams.get('target') ?? '';
    const gate = held.get(target);
    if (gate && !(await gate)) throw new TypeError('Failed to fetch');
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${server.token}`);
    return realFetch(server.origin + path, { ...init, headers });
  });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await server?.dispose();
  if (savedRoots === undefined) delete process.env.WEFT_SESSION_ROOTS;
  else process.env.WEFT_SESSION_ROOTS = savedRoots;
});
beforeEach(() => {
  requested = [];
  held.clear();
  atlasStore.setState({ whyTarget: '', whyResult: null, whyError: null, whyLoading: false, whyIncludeRead: false });
});

function hold(target: string): (answer: boolean) => void {
  let release!: (answer: boolean) => void;
  held.set(target, new Promise<boolean>((resolve) => (release = resolve)));
  return release;
}

describe('the Why panel', () => {
  it('leaves read-only turns out by default, and the toggle asks the shown target again with them', async () => {
    await askWhy(PI_TODO);
    expect(requested).toEqual([`/api/atlas/why?target=${encodeURIComponent(PI_TODO)}`]);
    expect(atlasStore.getState().whyResult?.hits.map((hit) => hit.op)).toEqual(['edit', 'write']);

    await setWhyIncludeRead(true);
    expect(requested[1]).toBe(`/api/atlas/why?target=${encodeURIComponent(PI_TODO)}&includeRead=true`);
    expect(atlasStore.getState()).toMatchObject({
      whyIncludeRead: true,
      whyTarget: PI_TODO,
      whyLoading: false,
      whyError: null,
    });
    await askWhy(CODEX_TODO);
    expect(requested[2]).toContain('&includeRead=true');
  });

  it('shows only the latest question: an older answer or failure arriving late is dropped', async () => {
    const releaseSlow = hold(PI_TODO);
    const slow = askWhy(PI_TODO);
    await askWhy(CODEX_TODO);
    releaseSlow(true);
    await slow;
    expect(atlasStore.getState().whyTarget).toBe(CODEX_TODO);
    expect(atlasStore.getState().whyResult?.target).toBe(CODEX_TODO);
    expect(atlasStore.getState().whyResult?.hits.every((hit) => hit.runner === 'codex')).toBe(true);

    const releaseFailing = hold(PI_TODO);
    const failing = askWhy(PI_TODO);
    held.delete(CODEX_TODO);
    await askWhy(CODEX_TODO);
    releaseFailing(false);
    await failing;
    expect(atlasStore.getState()).toMatchObject({ whyError: null, whyLoading: false });
    expect(atlasStore.getState().whyResult?.target).toBe(CODEX_TODO);

    // The same target asked twice: the first request failing late does not replace the second's answer.
    const releaseFirst = hold(CODEX_TODO);
    const first = askWhy(CODEX_TODO);
    held.delete(CODEX_TODO);
    await askWhy(CODEX_TODO);
    releaseFirst(false);
    await first;
    expect(atlasStore.getState().whyError).toBeNull();
    expect(atlasStore.getState().whyResult?.target).toBe(CODEX_TODO);
  });
});
