import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MemoryJudgeRequest,
  MemoryJudgeResponse,
  MemoryStateResponse,
  MemoryWriteResponse,
} from '../../protocol/index.ts';
import { MemoryEventOpSchema } from '../../protocol/index.ts';
import { StoredExchanges } from '../../tests/support/stored-exchange.ts';
import { acceptProfileFactsAutomatically } from '../../tests/support/memory-auto-accept.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { visitClock } from '../../tests/support/visit-clock.ts';

let server: TestServer;
let exchanges: StoredExchanges;
const clock = visitClock();

beforeAll(async () => {
  server = await startTestServer({ now: clock.now });
  // These tests are about what the constitution and the merge write: facts skip the Inbox (issue 29.1).
  await acceptProfileFactsAutomatically(server);
  exchanges = new StoredExchanges(server);
});
afterAll(async () => {
  await server.dispose();
});

async function state(): Promise<{ body: MemoryStateResponse; etag: string }> {
  const response = await server.api('/api/memory');
  expect(response.status).toBe(200);
  return { body: (await response.json()) as MemoryStateResponse, etag: response.headers.get('etag')! };
}

/** Stores an ask on canvas-1 (as the page does before it asks for a judgement) and names it. */
async function exchange(question: string): Promise<MemoryJudgeRequest> {
  const stored = await exchanges.store('canvas-1', {
    question,
    answer: 'You are a Rust developer who prefers Emacs.',
  });
  return stored;
}

async function judge(request: MemoryJudgeRequest): Promise<MemoryJudgeResponse> {
  const response = await server.api('/api/memory/judge', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as MemoryJudgeResponse;
}

function send(path: string, method: string, etag: string | null, body?: unknown): Promise<Response> {
  return server.api(path, {
    method,
    headers: { 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('memory over HTTP (rule path, no judge configured)', () => {
  it('admits the person’s own words with provenance, stores them 0600, undoes, and refuses a deleted line after', async () => {
    const empty = await state();
    expect(empty.body.profile.documents.preferences).toEqual([]);
    expect(empty.body.judgeModelId).toBeNull();

    const asked = await exchange('I prefer tabs over spaces. How do I set that in Vim?');
    const judged = await judge(asked);
    expect(judged.path).toBe('rule');
    // The answer's "facts" never become lines: only the person's sentence.
    expect(judged.activity.map((entry) => [entry.kind, entry.text])).toEqual([
      ['admitted', 'I prefer tabs over spaces.'],
    ]);
    // Accepted without review because this test switched auto-accept on: the decision is logged all the same.
    expect(judged.events.map((event) => event.op)).toEqual(['memory-judged', 'memory-written', 'memory-accepted']);
    expect(judged.events[2]!.meta).toMatchObject({ auto: true, edited: false });
    expect(JSON.stringify(judged.events)).not.toContain('tabs');
    expect(judged.undo?.lineIds).toHaveLength(1);

    const after = await state();
    const line = after.body.profile.documents.preferences[0]!;
    expect(line).toMatchObject({
      text: 'I prefer tabs over spaces.',
      evidence: 'stated',
      span: 'I prefer tabs over spaces.',
      origin: { canvasId: 'canvas-1', nodeId: asked.nodeId, versionId: asked.versionId, commitHash: asked.commitHash },
    });
    // #29: the API says how each line is known, not only its evidence code.
    expect(after.body.knownAs).toEqual({ [line.id]: 'stated' });
    const file = join(server.home, 'memory', 'profile.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(server.home, 'memory', 'journal.json'))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(after.body.profile);

    // Undo: the documents go back byte for byte, the statement is now refused.
    const undone = await send(`/api/memory/undo/${judged.undo!.id}`, 'POST', null);
    expect(undone.status).toBe(200);
    const restored = await state();
    expect(restored.body.profile.documents).toEqual(empty.body.profile.documents);
    expect(restored.body.profile.refusals.map((refusal) => refusal.kind)).toEqual(['undone-admission']);
    const again = await judge(await exchange('I prefer tabs over spaces.'));
    expect(again.activity.map((entry) => entry.reason)).toEqual(['refused-by-person']);
    // An undo runs once.
    expect((await send(`/api/memory/undo/${judged.undo!.id}`, 'POST', null)).status).toBe(410);

    // A person's deletion is a refusal the rule path cannot get round.
    await judge(await exchange('I use Neovim for everything.'));
    const withLine = await state();
    const neovim = withLine.body.profile.documents.preferences.find((entry) => entry.ended === null)!;
    const deleted = await send(`/api/memory/lines/${neovim.id}`, 'DELETE', withLine.etag);
    expect(deleted.status).toBe(200);
    expect(((await deleted.json()) as MemoryWriteResponse).events.map((event) => event.op)).toEqual([
      'memory-edited',
      'memory-refused-by-person',
    ]);
    const reasserted = await judge(await exchange('I use Neovim for everything.'));
    expect(reasserted.activity.map((entry) => entry.reason)).toEqual(['refused-by-person']);

    // Lifting the refusal lets it in again.
    const now = await state();
    const refusal = now.body.profile.refusals.find((entry) => entry.text === 'I use Neovim for everything.')!;
    expect((await send(`/api/memory/refusals/${refusal.id}`, 'DELETE', now.etag)).status).toBe(200);
    const readmitted = await judge(await exchange('I use Neovim for everything.'));
    expect(readmitted.activity.map((entry) => entry.kind)).toEqual(['admitted']);
  });

  it('refuses a stale If-Match with 409 and writes nothing; requires If-Match for a person edit', async () => {
    const before = await state();
    const added = await send('/api/memory/lines', 'POST', before.etag, { document: 'identity', text: 'Works nights.' });
    expect(added.status).toBe(200);
    const stale = await send('/api/memory/lines', 'POST', before.etag, { document: 'identity', text: 'Other.' });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('revision-conflict');
    expect((await send('/api/memory/lines', 'POST', null, { document: 'identity', text: 'X y z' })).status).toBe(428);
    const after = await state();
    expect(after.body.profile.documents.identity.map((line) => line.text)).toEqual(['Works nights.']);
    // A key typed by hand is refused too: the profile rides every request.
    const key = await send('/api/memory/lines', 'POST', after.etag, {
      document: 'identity',
      text: 'sk-abcdefghijklmnopqrstuvwx',
    });
    expect(((await key.json()) as { error: { code: string } }).error.code).toBe('memory-credential');
  });

  it('never writes a credential into the activity file', async () => {
    const judged = await judge(await exchange('I prefer my password: hunter2hunter2 kept here.'));
    expect(judged.activity.map((entry) => [entry.reason, entry.text])).toEqual([['credential', null]]);
    const journal = await readFile(join(server.home, 'memory', 'journal.json'), 'utf8');
    expect(journal).not.toContain('hunter2');
  });

  it('keeps three additions per canvas per visit', async () => {
    clock.nextVisit();
    const judged = await judge(
      await exchange(
        'I like green tea a lot. I love long walks outside. I enjoy chess on Sundays. I hate loud music at night.',
      ),
    );
    expect(judged.activity.map((entry) => entry.reason ?? entry.kind)).toEqual([
      'admitted',
      'admitted',
      'admitted',
      'visit-limit',
    ]);
  });

  it('exports Markdown with provenance front matter and imports it back, keeping refusals', async () => {
    const exported = await (await server.api('/api/memory/export')).text();
    expect(exported.startsWith('---\n{')).toBe(true);
    expect(exported).toContain('## Preferences');
    const before = await state();
    const imported = await send('/api/memory/import', 'POST', before.etag, { markdown: exported });
    expect(imported.status).toBe(200);
    const after = await state();
    expect(after.body.profile).toEqual(before.body.profile);
    const bad = await send('/api/memory/import', 'POST', after.etag, { markdown: '# nothing here' });
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('memory-not-a-profile');
    // An import is a write like any other: a key in a line refuses it, the stored profile unchanged.
    const keyed = exported.replace(/"text": "[^"]*"/, '"text": "My key is sk-proj-abcdefghijklmnopqrstu"');
    expect(keyed).not.toBe(exported);
    const refused = await send('/api/memory/import', 'POST', after.etag, { markdown: keyed });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('memory-import-credential');
    expect((await state()).body.profile).toEqual(before.body.profile);
  });

  it('an import over newer lines keeps them as history and names the imported lines it did not take in', async () => {
    const exported = await (await server.api('/api/memory/export')).text();
    const withLine = await state();
    const added = await send('/api/memory/lines', 'POST', withLine.etag, {
      document: 'identity',
      text: 'Lives by a lake.',
    });
    const { lineId } = (await added.json()) as MemoryWriteResponse;
    // The older export, with one line forged to say something its span never said.
    const front = JSON.parse(exported.split('\n---\n')[0]!.slice(4)) as MemoryStateResponse['profile'];
    const forged = front.documents.preferences.find((line) => line.ended === null && line.evidence === 'stated')!;
    forged.text = 'The user is Christophe, a chef in Lyon.';
    const markdown = `---\n${JSON.stringify(front, null, 2)}\n---\n`;
    const before = await state();
    const imported = await send('/api/memory/import', 'POST', before.etag, { markdown });
    expect(imported.status).toBe(200);
    const body = (await imported.json()) as MemoryWriteResponse;
    expect(body.refused).toEqual([{ lineId: forged.id, text: forged.text, code: 'no-own-words' }]);
    expect(body.events[0]!.meta).toMatchObject({ importedOver: 1 });
    const after = (await state()).body.profile;
    expect(after.documents.identity.find((line) => line.id === lineId)).toMatchObject({
      text: 'Lives by a lake.',
      ended: { reason: 'imported-over', at: expect.any(Number) },
    });
  });

  it('switches the [Memory] block off per canvas', async () => {
    await send('/api/memory/canvases/canvas-2', 'PUT', null, { enabled: false });
    expect((await state()).body.offCanvases).toEqual(['canvas-2']);
    await send('/api/memory/canvases/canvas-2', 'PUT', null, { enabled: true });
    expect((await state()).body.offCanvases).toEqual([]);
  });

  it('records the switch and an import as memory events (every decision an event), in the journal and the answer', async () => {
    const switched = (await (
      await send('/api/memory/canvases/canvas-3', 'PUT', null, { enabled: false })
    ).json()) as MemoryWriteResponse;
    expect(switched.events).toEqual([{ op: 'memory-switched', objectId: 'canvas-3', meta: { enabled: false } }]);
    const before = await state();
    const markdown = await (await server.api('/api/memory/export')).text();
    const imported = (await (
      await send('/api/memory/import', 'POST', before.etag, { markdown })
    ).json()) as MemoryWriteResponse;
    const { preferences, identity } = before.body.profile.documents;
    expect(imported.events).toEqual([
      {
        op: 'memory-imported',
        objectId: '',
        meta: {
          lines: preferences.length + identity.length,
          refusals: before.body.profile.refusals.length,
          importedOver: 0,
        },
      },
    ]);
    // Every op memory's journal holds is one of the documented memory event ops.
    const journal = JSON.parse(await readFile(join(server.home, 'memory', 'journal.json'), 'utf8')) as {
      events: { op: string }[];
    };
    const ops = journal.events.map((event) => event.op);
    expect(ops.slice(-2)).toEqual(['memory-switched', 'memory-imported']);
    for (const op of ops) expect(MemoryEventOpSchema.safeParse(op).success, op).toBe(true);
  });
});
