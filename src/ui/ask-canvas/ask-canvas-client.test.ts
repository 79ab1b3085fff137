import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_RECEIPT_MODEL_ID } from '../../../protocol/index.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from '../store/test-app.ts';
import { createAskCanvasApi } from './ask-canvas-api.ts';
import { createAskCanvasClient } from './ask-canvas-client.ts';
import { planAsk } from './plan-ask.ts';

// The page's side-chat client against the real server: the offline receipt model answers with a receipt of exactly
// what it received, so the test reads the request hash the model saw out of the answer itself.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

let counter = 0;
const newApp = () => new TestApp(server, `ask-canvas-client-${counter++}-${Math.random()}`).start();
const newClient = () => createAskCanvasClient(createAskCanvasApi({ baseUrl: server.origin, token: server.token }));

describe('the ask-the-canvas client', () => {
  it('sends the previewed request, writes its event with that hash, and the stored turn holds the same hash', async () => {
    const app = await newApp();
    await app.state.createCanvas('Client canvas');
    const node = app.addQuestion('What is the plan?');
    app.state.focusNode(node);
    const client = newClient();
    expect(app.state.defaultModelId).toBe(OFFLINE_RECEIPT_MODEL_ID);
    const preview = planAsk(app.state, [], 'What is on this canvas?')!;

    expect(await client.send(app.store, '  What is on this canvas?  ')).toBe(true);
    const [turn] = client.view.getState().turns;
    expect(turn).toMatchObject({ question: 'What is on this canvas?', status: 'complete', focusId: node });
    expect(turn!.requestHash).toBe(preview.plan.requestHash);
    // The receipt names the hash of what the model was handed.
    expect(turn!.answer).toContain(`Request hash: ${preview.plan.requestHash}`);
    const events = app.graph.events.filter((event) => event.op === 'ask-canvas');
    expect(events).toHaveLength(1);
    expect(events[0]!).toMatchObject({
      objectId: turn!.id,
      meta: { requestHash: turn!.requestHash, outline: 1, chain: 1, focus: node },
    });
    expect(client.view.getState().pending).toBeNull();

    // The next ask carries the first turn: another hash, and the chat on the server has both.
    expect(await client.send(app.store, 'And then?')).toBe(true);
    expect(client.view.getState().turns.map((entry) => entry.question)).toEqual([
      'What is on this canvas?',
      'And then?',
    ]);
    // Instructions, outline, focus header, the focused question, the earlier turn (two), the new question.
    expect(client.view.getState().turns[1]!.answer).toMatch(/Messages: 7\b/);
    await app.close();
  });

  it('a request no model received writes no event and stores no turn; another canvas has its own chat', async () => {
    const app = await newApp();
    const first = await app.state.createCanvas('One');
    app.addQuestion('Anything?');
    const client = newClient();
    app.store.setState({ defaultModelId: 'nobody/model' });
    expect(await client.send(app.store, 'Will this go out?')).toBe(false);
    expect(app.lastToast()?.code).toBe('model-missing');
    expect(app.graph.events.filter((event) => event.op === 'ask-canvas')).toEqual([]);
    expect(client.view.getState().turns).toEqual([]);

    app.store.setState({ defaultModelId: OFFLINE_RECEIPT_MODEL_ID });
    expect(await client.send(app.store, 'Now?')).toBe(true);
    await app.state.createCanvas('Two');
    expect(await client.send(app.store, 'A question for two')).toBe(true);
    expect(client.view.getState().turns.map((turn) => turn.question)).toEqual(['A question for two']);
    await client.load(first);
    expect(client.view.getState().turns.map((turn) => turn.question)).toEqual(['Now?']);
    await app.close();
  });

  it('refuses an empty question without sending anything', async () => {
    const app = await newApp();
    await app.state.createCanvas('Empty');
    const client = newClient();
    expect(await client.send(app.store, '   ')).toBe(false);
    expect(app.lastToast()?.code).toBe('empty-question');
    expect(app.graph.events.filter((event) => event.op === 'ask-canvas')).toEqual([]);
    await app.close();
  });
});
