import type { CanvasDocument } from '../../protocol/canvas-document.ts';

/** A small valid `.weft.json` document: one note and one question with an answer. */
export function sampleCanvas(id: string, name = `Canvas ${id}`, noteText = 'A note'): CanvasDocument {
  return {
    format: 'weft.canvas',
    version: 4,
    canvas: { id, name, workingDirectory: null, createdAt: 1_700_000_000_000 },
    nodes: [
      {
        id: 'note-1',
        kind: 'note',
        text: noteText,
        createdAt: 1,
        position: { x: 0, y: 0 },
        size: null,
        archived: false,
        archivedAt: null,
        excludedParts: [],
      },
      {
        id: 'question-1',
        kind: 'question',
        question: 'What follows?',
        versions: [],
        currentVersionId: null,
        autoRerun: { enabled: false, rounds: 1 },
        model: null,
        attachments: [],
        createdAt: 2,
        position: { x: 0, y: 200 },
        size: null,
        archived: false,
        archivedAt: null,
        excludedParts: [],
      },
    ],
    wires: [{ id: 'wire-1', from: 'note-1', to: 'question-1', createdAt: 3, kind: 'solid' }],
    attachments: [],
    dismissals: [],
    ledgers: [],
    events: [],
  };
}
