import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamSnapshot } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import { startTestServer, type TestServer } from '../../../tests/support/index.ts';
import { TestApp } from './test-app.ts';
import { keepAgentAnswer } from './kept-agent-answers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

describe('an agent answer that ends after the person switched canvas', () => {
  it('is kept for its canvas and shown when that canvas is opened again, and it is saved there', async () => {
    const app = await new TestApp(server, `kept-agent-${Math.random()}`).start();
    await app.state.createCanvas('Agent canvas');
    const canvasId = app.graph.canvas.id;
    const nodeId = app.addQuestion('Fix the lexer');
    const snapshot = upstreamSnapshot(app.graph, nodeId);
    await app.state.createCanvas('Another canvas');
    keepAgentAnswer(canvasId, nodeId, [
      {
        type: 'add-version',
        nodeId,
        select: true,
        version: {
          text: 'The lexer is fixed.',
          question: 'Fix the lexer',
          model: 'pi:scripted',
          requestHash: 'a'.repeat(64),
          upstreamFingerprint: snapshot.upstreamFingerprint,
          upstream: snapshot.upstream,
          origin: 'generated',
          status: 'complete',
          branchOf: null,
          agent: {
            runtime: 'pi',
            sessionId: 'session-1',
            sessionFile: null,
            receivedHash: 'a'.repeat(64),
            footprints: [],
            approvals: [],
            changedFiles: [],
          },
        },
      },
    ]);
    // The other canvas is untouched.
    expect(app.graph.nodes.size).toBe(0);
    await app.state.openCanvas(canvasId);
    const versions = () => (app.graph.nodes.get(nodeId) as QuestionNode).versions.map((version) => version.text);
    expect(versions()).toEqual(['The lexer is fixed.']);
    // Applied once: opening the canvas again does not add it twice, and the saved canvas keeps it.
    await app.state.flush();
    await app.state.createCanvas('Third');
    await app.state.openCanvas(canvasId);
    expect(versions()).toEqual(['The lexer is fixed.']);
    await app.close();
  });
});
