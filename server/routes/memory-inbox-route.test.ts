import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MemoryInboxResponse,
  MemoryJournalPage,
  MemoryJudgeRequest,
  MemoryJudgeResponse,
  MemoryStateResponse,
  MemoryWriteResponse,
} from '../../protocol/index.ts';
import { memoryBlock } from '../../src/core/memory/index.ts';
import { MemoryStore, memoryDirectory } from '../../runtime/memory/index.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
let exchanges: StoredExchanges;
beforeAll(async () => {
  // Settings as a new person has them: profile facts wait in the Inbox.
  server = await startTestServer();
  exchanges = new StoredExchanges(server);
});
afterAll(async () => {
  await server.dispose();
});

function send(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return server.api(path, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function judge(canvasId: string, question: string): Promise<MemoryJudgeResponse & { asked: MemoryJudgeRequest }> {
  const asked = await exchanges.store(canvasId, { question, answer: 'You are a Rust developer who prefers Emacs.' });
  const response = await send('/api/memory/judge', 'POST', asked);
  expect(response.status).toBe(200);
  return { ...((await response.json()) as MemoryJudgeResponse), asked };
}

async function inbox(): Promise<MemoryInboxResponse> {
  const response = await send('/api/memory/inbox');
  expect(response.status).toBe(200);
  return (await response.json()) as MemoryInboxResponse;
}

async function profile(): Promise<MemoryStateResponse['profile']> {
  return ((await (await send('/api/memory')).json()) as MemoryStateResponse).profile;
}

/**
 * The [Memory] block a request of the canvas would carry, from the page's read (`GET /api/memory`) and from the
 * files as `weft compile` reads them (`cli/memory-inbox-command.test.ts` runs the compiler itself).
 */
async function blocks(canvasId: string): Promise<string> {
  const files = new MemoryStore({ directory: memoryDirectory(server.home), now: Date.now, newId: () => 'unused' });
  const stored = await files.read();
  const fromFiles = stored.journal.offCanvases.includes(canvasId) ? null : memoryBlock(stored.profile);
  return `${fromFiles ?? ''}\n${memoryBlock(await profile()) ?? ''}`;
}

async function journalOps(): Promise<string[]> {
  const page = (await (await send('/api/memory/journal?limit=500')).json()) as MemoryJournalPage;
  return page.entries
    .filter((entry) => entry.journal === 'profile')
    .map((entry) => entry.event.op)
    .reverse();
}

describe('the Inbox: nothing a model proposes reaches memory until the person accepts it (issue 29.1)', () => {
  it('holds a proposed fact out of the profile and every [Memory] block, once, with its evidence and rule', async () => {
    const judged = await judge('canvas-a', 'I prefer tabs over spaces. How do I set that in Vim?');
    expect(judged.activity.map((entry) => [entry.kind, entry.text])).toEqual([
      ['proposed', 'I prefer tabs over spaces.'],
    ]);
    expect(judged.undo).toBeNull();
    expect((await profile()).documents.preferences).toEqual([]);
    expect(await blocks('canvas-a')).not.toContain('tabs');

    const listed = await inbox();
    expect(listed).toMatchObject({ autoAccept: false, total: 1, nextCursor: null });
    expect(listed.proposals).toEqual([
      {
        id: expect.any(String),
        at: expect.any(Number),
        text: 'I prefer tabs over spaces.',
        document: 'preferences',
        category: 'preference',
        evidence: 'stated',
        span: 'I prefer tabs over spaces.',
        origin: {
          canvasId: 'canvas-a',
          nodeId: judged.asked.nodeId,
          versionId: judged.asked.versionId,
          commitHash: judged.asked.commitHash,
          at: expect.any(Number),
        },
        updates: null,
        path: 'rule',
      },
    ]);
    // Stored server-side, 0600, exactly what the route lists; its revision is the SHA-256 of those bytes.
    const file = join(server.home, 'memory', 'inbox.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).pending).toEqual(listed.proposals);

    // The same exchange asked again does not fill the Inbox with copies.
    const again = await judge('canvas-a', 'I prefer tabs over spaces. How do I set that in Vim?');
    expect(again.activity.map((entry) => [entry.kind, entry.reason])).toEqual([['proposed', 'already-pending']]);
    expect((await inbox()).proposals).toHaveLength(1);
    expect(await journalOps()).toEqual(['memory-judged', 'memory-proposed', 'memory-judged']);
  });

  it('rejects: the proposal is gone, remembered like a deleted line, and the same words never come back', async () => {
    const [pending] = (await inbox()).proposals;
    const rejected = await send(`/api/memory/inbox/${pending!.id}/reject`, 'POST');
    expect(rejected.status).toBe(200);
    expect(((await rejected.json()) as MemoryWriteResponse).events.map((event) => event.op)).toEqual([
      'memory-rejected',
    ]);
    expect((await inbox()).proposals).toEqual([]);
    expect((await profile()).refusals).toMatchObject([
      { kind: 'rejected-proposal', text: 'I prefer tabs over spaces.' },
    ]);

    const asked = await judge('canvas-b', 'I prefer tabs over spaces. How do I set that in Vim?');
    expect(asked.activity.map((entry) => [entry.kind, entry.reason])).toEqual([['refused', 'refused-by-person']]);
    // A rewording is refused too (refusal-match), as after a deletion.
    const reworded = await judge('canvas-b', 'I prefer tabs.');
    expect(reworded.activity.map((entry) => entry.reason)).toEqual(['refused-by-person']);
    expect((await inbox()).proposals).toEqual([]);
    expect(await blocks('canvas-b')).not.toContain('tabs');
    // A decision already taken cannot be taken again.
    const twice = await send(`/api/memory/inbox/${pending!.id}/accept`, 'POST', {});
    expect(twice.status).toBe(404);
    expect(((await twice.json()) as { error: { code: string } }).error.code).toBe('memory-unknown-proposal');
  });

  it('accepts: the line is written with its evidence and origin and is in the next [Memory] block', async () => {
    const judged = await judge('canvas-c', 'I use Neovim for everything.');
    const [pending] = (await inbox()).proposals;
    expect(await blocks('canvas-c')).not.toContain('Neovim');
    const accepted = await send(`/api/memory/inbox/${pending!.id}/accept`, 'POST', {});
    expect(accepted.status).toBe(200);
    const written = (await accepted.json()) as MemoryWriteResponse;
    expect(written.events.map((event) => [event.op, event.meta.edited ?? null])).toEqual([
      ['memory-accepted', false],
      ['memory-written', null],
    ]);
    const [line] = (await profile()).documents.preferences.filter((each) => each.ended === null);
    expect(line).toMatchObject({
      id: written.lineId,
      text: 'I use Neovim for everything.',
      evidence: 'stated',
      span: 'I use Neovim for everything.',
      origin: { canvasId: 'canvas-c', nodeId: judged.asked.nodeId, commitHash: judged.asked.commitHash },
    });
    expect(await blocks('canvas-c')).toContain('I use Neovim for everything.');
    expect((await inbox()).proposals).toEqual([]);
  });

  it('a proposal whose turn was archived cannot be accepted, and an archived turn is not judged (issue 29.2)', async () => {
    const judged = await judge('canvas-put-aside', 'I use Obsidian for everything.');
    const pending = (await inbox()).proposals.find((each) => each.text.includes('Obsidian'))!;
    const stored = await server.context.canvases.read('canvas-put-aside');
    const archived = {
      ...stored.document,
      nodes: stored.document.nodes.map((node) =>
        node.id === judged.asked.nodeId ? { ...node, archived: true, archivedAt: 1 } : node,
      ),
    };
    await server.context.canvases.write('canvas-put-aside', archived, { baseRevision: stored.revision });
    const accepted = await send(`/api/memory/inbox/${pending.id}/accept`, 'POST', {});
    expect(accepted.status).toBe(409);
    expect(((await accepted.json()) as { error: { code: string } }).error.code).toBe('memory-turn-put-aside');
    expect(JSON.stringify(await profile())).not.toContain('Obsidian');
    const again = await send('/api/memory/judge', 'POST', judged.asked);
    expect(again.status).toBe(409);
    // Rejecting it stays possible: the person can still clear it from the Inbox.
    expect((await send(`/api/memory/inbox/${pending.id}/reject`, 'POST')).status).toBe(200);
  });

  it('edits then accepts: the person’s words are the line (manual), still leading to the turn', async () => {
    const judged = await judge('canvas-d', 'I am a marine biologist.');
    const [pending] = (await inbox()).proposals;
    expect(pending!.document).toBe('identity');
    const refused = await send(`/api/memory/inbox/${pending!.id}/accept`, 'POST', { text: 'Line one\nline two' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('memory-not-one-line');
    const accepted = await send(`/api/memory/inbox/${pending!.id}/accept`, 'POST', {
      text: 'I am a marine biologist studying kelp.',
    });
    expect(accepted.status).toBe(200);
    const written = (await accepted.json()) as MemoryWriteResponse;
    expect(written.events.map((event) => [event.op, event.meta.edited])).toEqual([['memory-accepted', true]]);
    const line = (await profile()).documents.identity.find((each) => each.id === written.lineId);
    expect(line).toMatchObject({
      text: 'I am a marine biologist studying kelp.',
      evidence: 'manual',
      span: null,
      origin: { canvasId: 'canvas-d', nodeId: judged.asked.nodeId },
    });
    expect(await blocks('canvas-d')).toContain('I am a marine biologist studying kelp.');
    expect(await blocks('canvas-d')).not.toContain('I am a marine biologist.\n');
  });

  it('logs every decision in the hash-chained journal, which still verifies', async () => {
    const ops = await journalOps();
    for (const op of ['memory-proposed', 'memory-rejected', 'memory-accepted']) expect(ops).toContain(op);
    const verified = (await (await send('/api/memory/journal/verify')).json()) as { intact: boolean };
    expect(verified.intact).toBe(true);
  });

  it('refuses a query it cannot read with a coded error', async () => {
    const response = await send('/api/memory/inbox?limit=0');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid-query');
  });

  it('is guarded by the launch token like every route', async () => {
    const response = await fetch(`${server.origin}/api/memory/inbox`);
    expect(response.status).toBe(401);
    const decide = await fetch(`${server.origin}/api/memory/inbox/x/reject`, { method: 'POST' });
    expect(decide.status).toBe(401);
  });
});
