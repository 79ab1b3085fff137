import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanvasDocument, CanvasVerifyResponse } from '../../protocol/index.ts';
import { sampleCanvas, withEvents } from '../../tests/support/sample-canvas.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

/**
 * Issue 27.3, through HTTP as a hostile client with the token: DELETE a canvas, then PUT a record with a forged
 * three-event log under the same id. It is stored as a new record and verify says so; it never reads as the old
 * record, intact and anchored.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

const put = (id: string, document: CanvasDocument) =>
  server.api(`/api/canvases/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(document),
  });

describe('a record re-created under a deleted id', () => {
  it('is reported as a new record by verify', async () => {
    expect((await put('study', withEvents(sampleCanvas('study', 'Study'), 8, 'real'))).status).toBe(200);
    const before = (await (await server.api('/api/canvases/study/verify')).json()) as CanvasVerifyResponse;
    expect(before.recreatedAfter).toBeNull();

    expect((await server.api('/api/canvases/study', { method: 'DELETE' })).status).toBe(200);
    expect((await put('study', withEvents(sampleCanvas('study', 'Study'), 3, 'forged'))).status).toBe(200);
    const after = (await (await server.api('/api/canvases/study/verify')).json()) as CanvasVerifyResponse;
    expect(after.verdict).toMatchObject({ status: 'intact', eventCount: 3 });
    expect(after.recreatedAfter).toMatchObject({ eventCount: 8 });
  });
});
