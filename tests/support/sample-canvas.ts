import type { CanvasDocument } from '../../protocol/canvas-document.ts';
import { appendEvent } from '../../src/core/event-log.ts';

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

/** `document` with `count` more hash-chained events appended (ids `<label>-<n>`), as a record's log grows. */
export function withEvents(document: CanvasDocument, count: number, label = 'e'): CanvasDocument {
  const events = [...document.events];
  for (let index = 0; index < count; index += 1) {
    const id = `${label}-${events.length + 1}`;
    events.push(
      appendEvent(
        events,
        { op: 'edit', objectId: 'note-1', meta: { n: events.length } },
        { now: 1_700_000_000_000 + events.length, newId: () => id },
      ),
    );
  }
  return { ...document, events };
}
