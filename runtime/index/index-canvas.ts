import { migrateCanvasDocument, type CanvasDocument, type CanvasNode } from '../../protocol/index.ts';
import { isLive } from '../../src/core/index.ts';
import { findReferences } from '../atlas/index.ts';
import type { IndexedSession, IndexedTurn, TouchRow } from './session-rows.ts';

/** A piece of text for the materials phrase index (memory files, canvas materials and notes). */
export interface MaterialRow {
  kind: 'memory' | 'canvas-material' | 'canvas-note';
  runner: string | null;
  sessionId: string | null;
  title: string;
  text: string;
  turnKey: string;
  cwd: string | null;
  at: number | null;
}

export interface IndexedCanvas {
  session: IndexedSession;
  materials: MaterialRow[];
}

export type CanvasReadResult = { ok: true; canvas: IndexedCanvas } | { ok: false; reason: string };

/** Turn key of a canvas node: stable across edits, like every other turn key. */
export function canvasTurnKey(canvasId: string, nodeId: string): string {
  return `canvas:${canvasId}#${nodeId}`;
}

/** Parses a `.weft.json` canvas record; a corrupt record is refused (and its old rows are kept). */
export function readCanvasRecord(text: string): CanvasReadResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  // Through the named migrations, so a record an older Weft wrote is indexed as the app reads it.
  const loaded = migrateCanvasDocument(json);
  if (!loaded.ok) return { ok: false, reason: loaded.error.message };
  return { ok: true, canvas: indexCanvas(loaded.document) };
}

/**
 * Reduces a canvas to index rows. Archived nodes are left out entirely: a person archived them so they
 * stop answering "why" and "find".
 */
export function indexCanvas(document: CanvasDocument): IndexedCanvas {
  const { canvas } = document;
  const live = document.nodes.filter(isLive);
  const turns: IndexedTurn[] = [];
  const materials: MaterialRow[] = [];
  for (const node of live) {
    const key = canvasTurnKey(canvas.id, node.id);
    const turn = turnOfNode(node, key, turns.length + 1, canvas.workingDirectory);
    if (turn) turns.push(turn);
    if (node.kind === 'material') {
      materials.push({
        kind: 'canvas-material',
        runner: 'canvas',
        sessionId: canvas.id,
        title: node.title,
        text: node.text,
        turnKey: key,
        cwd: canvas.workingDirectory,
        at: node.createdAt,
      });
    } else if (node.kind === 'note' && node.text.trim() !== '') {
      materials.push({
        kind: 'canvas-note',
        runner: 'canvas',
        sessionId: canvas.id,
        title: canvas.name,
        text: node.text,
        turnKey: key,
        cwd: canvas.workingDirectory,
        at: node.createdAt,
      });
    }
  }
  const times = turns.map((turn) => turn.at).filter((at): at is number => at !== null);
  return {
    session: {
      runner: 'canvas',
      sessionId: canvas.id,
      title: canvas.name,
      cwd: canvas.workingDirectory,
      gitBranch: null,
      startedAt: canvas.createdAt,
      endedAt: times.length > 0 ? Math.max(...times) : canvas.createdAt,
      parentSessionId: null,
      parentTurnKey: null,
      isSubagent: false,
      turns,
    },
    materials,
  };
}

function turnOfNode(node: CanvasNode, key: string, number: number, cwd: string | null): IndexedTurn | null {
  if (node.kind === 'question') {
    const version = node.versions.find((candidate) => candidate.id === node.currentVersionId) ?? node.versions.at(-1);
    const answer = version?.text ?? '';
    return withReferences({
      key,
      number,
      userText: node.question,
      assistantText: answer,
      cwd,
      at: version?.createdAt ?? node.createdAt,
      model: version?.model ?? node.model,
      steps: [],
      touches: [],
      urls: [],
      arxivIds: [],
      dois: [],
    });
  }
  if (node.kind === 'mirror') {
    const touches: TouchRow[] = [];
    for (const step of node.source.steps) for (const path of step.files) touches.push({ path, op: step.op });
    return withReferences({
      key,
      number,
      userText: node.question,
      assistantText: node.answer,
      cwd,
      at: node.source.at ?? node.createdAt,
      model: node.source.model,
      steps: node.source.steps,
      touches,
      urls: [],
      arxivIds: [],
      dois: [],
      mirrors: node.source.turnKey,
    });
  }
  return null;
}

function withReferences(turn: IndexedTurn): IndexedTurn {
  const references = findReferences(`${turn.userText}\n${turn.assistantText}`);
  return { ...turn, urls: references.urls, arxivIds: references.arxivIds, dois: references.dois };
}
