import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionSchema, type Session } from '../../protocol/atlas-session.ts';
import { AtlasSessionsResponseSchema, AtlasWhyResponseSchema } from '../../protocol/http-api.ts';
import type { StreamEvent } from '../../protocol/stream-events.ts';
import { readStreamEvents } from '../../tests/support/sse-client.ts';
import { withAtlasServer } from '../../tests/support/atlas-server.ts';
import {
  applyChange,
  documentFromGraph,
  emptyCanvasDocument,
  graphFromDocument,
  mirrorSourceFromTurn,
} from '../../src/core/index.ts';
import { canvasesDirectory } from '../../runtime/index/index.ts';
import {
  CLAUDE_SUBAGENT_RUN,
  CLAUDE_SUBAGENT_SESSION,
  CODEX_MULTI_SESSION,
  hashTree,
  PI_MULTI_FILE,
  PI_MULTI_SESSION,
  piTurnLines,
} from '../atlas/testing/atlas-fixtures.ts';

let hashesBefore: Record<string, string>;
const atlas = withAtlasServer({
  prepare: (fixtures) => {
    hashesBefore = hashTree(fixtures.sessions);
  },
});

const getJson = async (path: string) => {
  const response = await atlas.server.api(path);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('GET /api/atlas/sessions', () => {
  it('lists session cards from the index (in $WEFT_HOME/index.db) with runners and project folders', async () => {
    const { status, body } = await getJson('/api/atlas/sessions');
    expect(status).toBe(200);
    const listing = AtlasSessionsResponseSchema.parse(body);
    expect(existsSync(join(atlas.fixtures.weftHome, 'index.db'))).toBe(true);
    expect(listing.sessions).toHaveLength(13);
    expect(listing.sessions.every((session) => !session.isSubagent)).toBe(true);
    expect(listing.runners).toEqual([
      { runner: 'claude-code', sessions: 5 },
      { runner: 'codex', sessions: 4 },
      { runner: 'pi', sessions: 4 },
    ]);
    expect(
      listing.projects.find((project) => project.cwd === '/tmp/realsessions/out/pi/multi-turn/repo')?.sessions,
    ).toBe(1);
    const withRun = listing.sessions.find((session) => session.sessionId === CLAUDE_SUBAGENT_SESSION)!;
    expect(withRun).toMatchObject({ runner: 'claude-code', hasSubagents: true, turnCount: 1, following: false });
    expect(withRun.size).toBe(statSync(withRun.sourcePath).size);
    const codex = listing.sessions.find((session) => session.sessionId === CODEX_MULTI_SESSION)!;
    expect(codex).toMatchObject({
      turnCount: 2,
      hasSubagents: false,
      cwd: '/tmp/realsessions/out/codex/multi-turn/repo',
    });
  });

  it('filters by runner, shows subagent runs on request, sorts, and searches through the why index', async () => {
    const pi = AtlasSessionsResponseSchema.parse((await getJson('/api/atlas/sessions?runner=pi')).body);
    expect(pi.sessions.map((session) => session.runner)).toEqual(['pi', 'pi', 'pi', 'pi']);

    const all = AtlasSessionsResponseSchema.parse((await getJson('/api/atlas/sessions?subagents=true')).body);
    expect(all.sessions.some((session) => session.sessionId === CLAUDE_SUBAGENT_RUN && session.isSubagent)).toBe(true);

    const byTurns = AtlasSessionsResponseSchema.parse((await getJson('/api/atlas/sessions?sort=turns')).body);
    expect(byTurns.sessions[0]!.turnCount).toBe(2);
    const bySize = AtlasSessionsResponseSchema.parse((await getJson('/api/atlas/sessions?sort=size')).body);
    expect(bySize.sessions.map((session) => session.size)).toEqual(
      [...bySize.sessions.map((session) => session.size)].sort((a, b) => b - a),
    );

    // "Mark the first item as done" is only in the second turns' text: found through the index's phrase search.
    const found = AtlasSessionsResponseSchema.parse(
      (await getJson(`/api/atlas/sessions?q=${encodeURIComponent('first item as done')}`)).body,
    );
    expect(found.sessions.map((session) => session.runner).sort()).toEqual(['claude-code', 'codex', 'pi']);
    // A phrase only a subagent run contains surfaces the session that delegated it.
    const delegated = AtlasSessionsResponseSchema.parse(
      (await getJson(`/api/atlas/sessions?q=${encodeURIComponent('reply with just the number')}`)).body,
    );
    expect(delegated.sessions.map((session) => session.sessionId)).toContain(CLAUDE_SUBAGENT_SESSION);
  });

  it('refuses bad parameters with coded errors', async () => {
    expect(await getJson('/api/atlas/sessions?runner=gemini')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-query' } },
    });
    expect(await getJson('/api/atlas/sessions?sort=random')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-query' } },
    });
    expect((await atlas.server.api('/api/atlas/sessions', { headers: { authorization: 'Bearer nope' } })).status).toBe(
      401,
    );
  });
});

describe('GET /api/atlas/sessions/:sessionId', () => {
  it('returns the canonical session with its subagent runs, read through the fence', async () => {
    const { status, body } = await getJson(`/api/atlas/sessions/${CLAUDE_SUBAGENT_SESSION}`);
    expect(status).toBe(200);
    const sessions = (body.sessions as unknown[]).map((session) => SessionSchema.parse(session));
    expect(sessions.map((session) => [session.sessionId, session.isSubagent])).toEqual([
      [CLAUDE_SUBAGENT_SESSION, false],
      [CLAUDE_SUBAGENT_RUN, true],
    ]);
    expect(sessions[1]!.parentTurnKey).toBe(sessions[0]!.turns[0]!.key);
    expect(sessions[0]!.turns[0]!.subagentSessionIds).toEqual([CLAUDE_SUBAGENT_RUN]);
  });

  it('reads a subagent run by its own id (which holds a slash) when asked for it', async () => {
    const { status, body } = await getJson(
      `/api/atlas/sessions/${encodeURIComponent(CLAUDE_SUBAGENT_RUN)}?runner=claude-code`,
    );
    expect(status).toBe(200);
    const sessions = (body.sessions as unknown[]).map((session) => SessionSchema.parse(session));
    expect(sessions.map((session) => session.sessionId)).toEqual([CLAUDE_SUBAGENT_RUN]);
  });

  it('answers 404 session-not-found for an unknown id', async () => {
    expect(await getJson('/api/atlas/sessions/no-such-session')).toMatchObject({
      status: 404,
      body: { error: { code: 'session-not-found' } },
    });
  });
});

describe('GET /api/atlas/why', () => {
  it('names the turns that touched a file', async () => {
    const target = '/tmp/realsessions/out/pi/multi-turn/repo/TODO.md';
    const why = AtlasWhyResponseSchema.parse(
      (await getJson(`/api/atlas/why?target=${encodeURIComponent(target)}`)).body,
    );
    expect(why.hits.length).toBeGreaterThan(0);
    expect(
      why.hits.every(
        (hit) => hit.path === target && hit.sessionId === PI_MULTI_SESSION && hit.mainSessionId === PI_MULTI_SESSION,
      ),
    ).toBe(true);
    expect(why.hits.map((hit) => hit.op)).toContain('write');
    expect(await getJson('/api/atlas/why?target=')).toMatchObject({
      status: 400,
      body: { error: { code: 'bad-target' } },
    });
  });
});

describe('GET /api/atlas/why in the app, which has no working directory of its own', () => {
  const hello = (runner: string) => `/tmp/realsessions/out/${runner}/basic-tools/repo/src/hello.ts`;
  const why = async (query: string) => AtlasWhyResponseSchema.parse((await getJson(`/api/atlas/why?${query}`)).body);

  it("resolves a repo-relative path against the sessions' working directories, as `weft why` run there does", async () => {
    const result = await why(`target=${encodeURIComponent('src/hello.ts')}`);
    const paths = new Set(result.hits.map((hit) => hit.path));
    expect(paths).toEqual(new Set([hello('claude'), hello('codex'), hello('pi')]));
    expect(result.hits.some((hit) => hit.runner === 'claude-code' && hit.op === 'write')).toBe(true);
  });

  it("resolves it against the canvas's working directory too, and refuses a relative one", async () => {
    const cwd = '/tmp/realsessions/out/claude/basic-tools';
    const result = await why(`target=${encodeURIComponent('repo/src/hello.ts')}&cwd=${encodeURIComponent(cwd)}`);
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.every((hit) => hit.path === hello('claude'))).toBe(true);
    expect(await getJson(`/api/atlas/why?target=repo/src/hello.ts&cwd=relative/folder`)).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid-query' } },
    });
  });

  it('lists a mirrored turn once: the canvas copy folds into the session turn it mirrors', async () => {
    const target = '/tmp/realsessions/out/codex/multi-turn/repo/TODO.md';
    const before = await why(`target=${encodeURIComponent(target)}`);
    expect(before.hits.length).toBeGreaterThan(0);
    expect(before.hits.every((hit) => hit.runner === 'codex')).toBe(true);

    // A canvas record that mirrors every turn of that session, as "Mirror to a new canvas" writes it.
    const { sessions } = (await getJson(`/api/atlas/sessions/${CODEX_MULTI_SESSION}?runner=codex`)).body as {
      sessions: Session[];
    };
    const session = sessions[0]!;
    let graph = graphFromDocument(
      emptyCanvasDocument({ id: 'mirror-canvas', name: 'Codex TODO', workingDirectory: null, createdAt: 1 }),
    );
    let counter = 0;
    for (const turn of session.turns) {
      const applied = applyChange(
        graph,
        { type: 'add-node', node: { kind: 'mirror', source: mirrorSourceFromTurn(session, turn) } },
        { now: 2, newId: () => `id-${(counter += 1)}` },
      );
      if (!applied.ok) throw applied.error;
      graph = applied.value.graph;
    }
    mkdirSync(canvasesDirectory(atlas.fixtures.weftHome), { recursive: true });
    writeFileSync(
      join(canvasesDirectory(atlas.fixtures.weftHome), 'mirror-canvas.weft.json'),
      JSON.stringify(documentFromGraph(graph)),
    );

    const after = await why(`target=${encodeURIComponent(target)}`);
    expect(after.hits.map((hit) => `${hit.turnKey} ${hit.op}`)).toEqual(
      before.hits.map((hit) => `${hit.turnKey} ${hit.op}`),
    );
    // Read-only turns fold the same way.
    const withReads = await why(`target=${encodeURIComponent(target)}&includeRead=true`);
    expect(withReads.hits.filter((hit) => hit.runner === 'canvas')).toEqual([]);
    expect(new Set(withReads.hits.map((hit) => hit.turnKey)).size).toBe(withReads.hits.length);
  });
});

describe('following a session', () => {
  it('persists the follow, pushes session-grew and mirror-appended when the file grows, and writes nothing under the roots', async () => {
    const controller = new AbortController();
    const pushes: StreamEvent[] = [];
    const stream = await atlas.server.api('/api/stream', { signal: controller.signal });
    const reading = (async () => {
      try {
        for await (const event of readStreamEvents(stream)) pushes.push(event);
      } catch {
        /* aborted */
      }
    })();

    const follow = await atlas.server.api('/api/atlas/follows', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runner: 'pi', sessionId: PI_MULTI_SESSION, following: true }),
    });
    expect(follow.status).toBe(200);
    const followsFile = JSON.parse(readFileSync(join(atlas.fixtures.weftHome, 'follows.json'), 'utf8'));
    expect(followsFile.follows).toEqual([expect.objectContaining({ runner: 'pi', sessionId: PI_MULTI_SESSION })]);
    expect((await getJson(`/api/atlas/sessions/${PI_MULTI_SESSION}`)).body.following).toBe(true);

    const file = join(atlas.fixtures.sessions, PI_MULTI_FILE);
    appendFileSync(file, piTurnLines('Add a third item: ship it.', 'Added "ship it" to TODO.md.', 3));
    const deadline = Date.now() + 8000;
    while (!pushes.some((event) => event.type === 'session-grew') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pushes).toContainEqual({ type: 'session-grew', runner: 'pi', sessionId: PI_MULTI_SESSION, turns: 3 });
    expect(pushes.some((event) => event.type === 'mirror-appended' && event.sessionId === PI_MULTI_SESSION)).toBe(true);
    controller.abort();
    await reading;

    const session = (await getJson(`/api/atlas/sessions/${PI_MULTI_SESSION}`)).body;
    expect(SessionSchema.parse((session.sessions as unknown[])[0]).turns.map((turn) => turn.userText)).toContain(
      'Add a third item: ship it.',
    );

    const unfollow = await atlas.server.api('/api/atlas/follows', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runner: 'pi', sessionId: PI_MULTI_SESSION, following: false }),
    });
    expect(await unfollow.json()).toEqual({ follows: [] });

    // Only the line this test appended changed under the roots.
    const after = hashTree(atlas.fixtures.sessions);
    const changed = Object.keys(after).filter((path) => after[path] !== hashesBefore[path]);
    expect(changed).toEqual([PI_MULTI_FILE]);
    expect(Object.keys(after).sort()).toEqual(Object.keys(hashesBefore).sort());
  });
});

describe('following across a restart', () => {
  it('a new server on the same WEFT_HOME resumes the follows in follows.json and pushes growth', async () => {
    const follow = await atlas.server.api('/api/atlas/follows', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ runner: 'pi', sessionId: PI_MULTI_SESSION, following: true }),
    });
    expect(follow.status).toBe(200);
    await atlas.restart();
    expect(await getJson('/api/atlas/follows')).toMatchObject({
      status: 200,
      body: { follows: [expect.objectContaining({ sessionId: PI_MULTI_SESSION })] },
    });
    const controller = new AbortController();
    const pushes: StreamEvent[] = [];
    const stream = await atlas.server.api('/api/stream', { signal: controller.signal });
    const reading = (async () => {
      try {
        for await (const event of readStreamEvents(stream)) pushes.push(event);
      } catch {
        /* aborted */
      }
    })();
    appendFileSync(
      join(atlas.fixtures.sessions, PI_MULTI_FILE),
      piTurnLines('After the restart: add a fourth item.', 'Added.', 4, 'a0000003'),
    );
    const deadline = Date.now() + 8000;
    while (!pushes.some((event) => event.type === 'session-grew') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await reading;
    expect(pushes).toContainEqual({ type: 'session-grew', runner: 'pi', sessionId: PI_MULTI_SESSION, turns: 4 });
  });
});
