import { expect } from 'vitest';
import {
  DEFAULT_RECALL_SETTING,
  type RecallPlanRequest,
  type RecallPlanResponse,
  type RecallSetting,
} from '../../../protocol/index.ts';
import { emptyCanvasDocument, TestCanvas } from '../../../src/core/index.ts';
import type { TestServer } from '../../../tests/support/test-server.ts';

/** What the recall route tests share: the fixtures' folder, requests, and canvases saved as the app saves them. */
// The real recorded sessions: the same greet() task run by Claude Code, Codex and Pi, each in its own folder.
export const CLAUDE_REPO = '/tmp/realsessions/out/claude/basic-tools/repo';

/** #29: a node that reads inferred items (dossiers are a model's summary). */
export const INFERRED_ON = { includeInferred: true, asOf: null };

export function setting(overrides: Partial<RecallSetting> = {}): RecallSetting {
  return { ...DEFAULT_RECALL_SETTING, enabled: true, ...overrides };
}

export function request(overrides: Partial<RecallPlanRequest> = {}): RecallPlanRequest {
  return {
    question: 'How was the greet function in hello.ts written?',
    canvasId: 'canvas-active',
    workingDirectory: CLAUDE_REPO,
    setting: setting(),
    contextWindow: 200_000,
    ...overrides,
  };
}

/**
 * Saves what a plan request claims — the canvas's working directory, the node's "every project" switch — as the
 * app does before it plans: the server reads the scope from the stored record, never from the body.
 */
export async function saveScope(server: TestServer, body: RecallPlanRequest): Promise<RecallPlanRequest> {
  const current = await server.context.canvases.read(body.canvasId).catch(() => null);
  const document =
    current?.document ??
    emptyCanvasDocument({ id: body.canvasId, name: 'Active', workingDirectory: null, createdAt: 1 });
  const nodeId =
    body.nodeId ?? (body.setting.global || body.memoryReading?.includeInferred ? 'scope-question' : undefined);
  let nodes = document.nodes;
  if (nodeId && !nodes.some((node) => node.id === nodeId)) {
    // The node as the app would have saved it (a question of its own; its events do not matter here).
    const draft = new TestCanvas({ idPrefix: 'scope-' });
    draft.addQuestion(body.question, { id: nodeId });
    nodes = [...nodes, ...draft.document().nodes];
  }
  nodes = nodes.map((node) =>
    node.id === nodeId && node.kind === 'question'
      ? { ...node, recall: body.setting, ...(body.memoryReading && { memoryReading: body.memoryReading }) }
      : node,
  );
  const saved = { ...document, canvas: { ...document.canvas, workingDirectory: body.workingDirectory }, nodes };
  await server.context.canvases.write(body.canvasId, saved, { baseRevision: current?.revision ?? null });
  return nodeId ? { ...body, nodeId } : body;
}

export async function post(server: TestServer, path: string, body: unknown): Promise<Response> {
  const full = body as Partial<RecallPlanRequest>;
  if (full.canvasId && full.setting && full.workingDirectory !== undefined)
    body = await saveScope(server, body as RecallPlanRequest);
  return server.api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export async function plan(server: TestServer, body: RecallPlanRequest): Promise<RecallPlanResponse> {
  const response = await post(server, '/api/recall/plan', body);
  expect(response.status).toBe(200);
  return (await response.json()) as RecallPlanResponse;
}

/** A canvas record in the server's store (the why index reads the same folder). */
export async function storeCanvas(
  server: TestServer,
  id: string,
  build: (canvas: TestCanvas) => void,
): Promise<TestCanvas> {
  const canvas = new TestCanvas({
    idPrefix: `${id}-n`,
    document: emptyCanvasDocument({ id, name: `Canvas ${id}`, workingDirectory: CLAUDE_REPO, createdAt: 1 }),
  });
  build(canvas);
  const current = await server.context.canvases.read(id).catch(() => null);
  await server.context.canvases.write(id, canvas.document(), { baseRevision: current?.revision ?? null });
  return canvas;
}
