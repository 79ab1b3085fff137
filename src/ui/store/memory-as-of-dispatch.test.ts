import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionNode } from '../../../protocol/canvas-document.ts';
import type { ScriptedReply } from '../../../tests/support/scripted-provider.ts';
import { acceptProfileFactsAutomatically } from '../../../tests/support/memory-auto-accept.ts';
import { startServerWithProvider, type ScriptedProvider, type TestServer } from '../../../tests/support/index.ts';
import { plannedRequest } from './planned-request.ts';
import { TestApp } from './test-app.ts';

/**
 * #29.4 through the real server: the person states a preference in March and a contradicting one in June (the
 * server's clock), a scripted judge on 127.0.0.1 admits both and its merge replaces the first; then an ordinary
 * ask carries only the current line, and a node dated April carries the superseded one, with the date in its
 * [Memory] header — preview hash = request hash = commit hash, and the scripted model receives those bytes.
 */
const MARCH = Date.UTC(2026, 2, 1);
const APRIL = Date.UTC(2026, 3, 1);
const JUNE = Date.UTC(2026, 5, 1);
const TABS = 'I prefer tabs over spaces.';
const SPACES = 'I prefer spaces over tabs now.';

let clock = MARCH;
let server: TestServer;
let provider: ScriptedProvider;
let dispose = async () => {};

function promptOf(body: unknown): string {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  const user = messages.find((message) => message.role === 'user');
  return typeof user?.content === 'string'
    ? user.content
    : ((user?.content as { text?: string }[] | undefined)?.map((part) => part.text ?? '').join('') ?? '');
}

/** The judge admits every sentence as a durable stated preference; its merge replaces the tabs line. */
function scripted(body: unknown): ScriptedReply {
  if ((body as { model?: string }).model === 'm') return { text: 'Noted.' };
  const prompt = promptOf(body);
  if (/\[New fact, in the person's words\]\n/.test(prompt)) {
    const tabs = new RegExp(`^(\\S+): ${TABS.replace(/\./g, '\\.')}$`, 'm').exec(prompt)![1]!;
    return { text: JSON.stringify({ operations: [{ op: 'replace', lineIds: [tabs], text: SPACES }] }) };
  }
  const answers: Record<string, Record<string, number>> = {
    'memory-durable': { durable: 0.9, passing: 0.1 },
    'memory-category': { preference: 0.9, identity: 0.05, project: 0.05 },
    'memory-stated': { stated: 0.9, implied: 0.1 },
    'memory-covers': { none: 1 },
  };
  return { text: JSON.stringify(answers[/Decision: (\S+)/.exec(prompt)![1]!]) };
}

beforeAll(async () => {
  ({ server, provider, dispose } = await startServerWithProvider({
    models: ['m', 'small'],
    apiKey: 'sk-test-as-of-0123',
    settings: { judgeModelId: 'local/small' },
    server: { now: () => clock },
  }));
  provider.replyFor = scripted;
  await acceptProfileFactsAutomatically(server);
});
afterAll(() => dispose());

const until = async (check: () => boolean, what: string) => {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
};

/** The texts of the last request the scripted model received for the chat model. */
function lastSent(): string {
  const body = provider.requests.filter((request) => (request.body as { model?: string }).model === 'm').at(-1)!.body;
  return JSON.stringify(body);
}

const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

describe('an "as of" node through the server (#29.4)', () => {
  it('a fact superseded by a later statement leaves the current request and is served by a node dated before the change', async () => {
    const app = await new TestApp(server, `memory-as-of-${Math.random()}`, { memory: true }).start();
    const memory = app.memory!;
    await app.state.createCanvas('As of canvas');
    const canvasId = app.graph.canvas.id;
    const asked = async (question: string, patch: Record<string, unknown> = {}) => {
      const node = app.addQuestion(question);
      app.state.apply({ type: 'edit-node', nodeId: node, patch: { model: 'local/m', ...patch } });
      expect(await app.state.ask(node)).toBe(true);
      return node;
    };
    const current = () =>
      memory.view
        .getState()
        .loaded?.profile.documents.preferences.filter((line) => line.ended === null)
        .map((line) => line.text) ?? [];

    await asked(TABS);
    await until(() => current().join() === TABS, 'the March statement admitted');
    clock = JUNE;
    await asked(SPACES);
    await until(() => current().join() === SPACES, 'the June statement superseding it');
    clock = JUNE + 86_400_000;

    // Now: only the line valid now rides the ask.
    await asked('Which indentation should this file use?');
    expect(lastSent()).toContain(inJson(`[Memory]\nPreferences:\n- ${SPACES}`));
    expect(lastSent()).not.toContain(TABS);

    // Dated April: the superseded line, with the date in the header; the preview's hash is the one committed.
    const dated = app.addQuestion('Which indentation did I use back then?');
    app.state.apply({
      type: 'edit-node',
      nodeId: dated,
      patch: { model: 'local/m', memoryReading: { includeInferred: false, asOf: APRIL } },
    });
    const node = app.graph.nodes.get(dated) as QuestionNode;
    const block = memory.blockFor(canvasId, 'chat', node.memoryReading);
    expect(block).toBe(`[Memory as of 2026-04-01T00:00:00.000Z]\nPreferences:\n- ${TABS}`);
    const preview = plannedRequest(app.state, dated, 'chat', undefined, block)!;
    expect(await app.state.ask(dated)).toBe(true);
    expect(lastSent()).toContain(inJson(block!));
    expect(lastSent()).not.toContain(SPACES);
    const version = (app.graph.nodes.get(dated) as QuestionNode).versions.at(-1)!;
    expect(version.memorySent).toBe(true);
    expect(version.requestHash).toBe(preview.built.requestHash);
    const commit = app.graph.events.filter((event) => event.op === 'commit').at(-1)!;
    expect(commit.meta.requestHash).toBe(preview.built.requestHash);
    await app.close();
  });
});
