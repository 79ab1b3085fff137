import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CANVAS_FORMAT, CANVAS_VERSION, type CanvasDocument } from '../../protocol/canvas-document.ts';
import { storedCanvasDocument } from '../../protocol/canvas-stored-form.ts';

/**
 * Test support: a canvas record `contract-canvas` in `weftHome` with one live question `q1` in two versions (`v1`,
 * `v2`), so its turn can be recalled by node (`canvas:contract-canvas#q1`) and by cited version (`…@v1`).
 */
export function writeCanvasWithVersions(weftHome: string): void {
  const version = (id: string, question: string, text: string, createdAt: number) => ({
    id,
    text,
    question,
    model: 'demo',
    createdAt,
    requestHash: null,
    upstreamFingerprint: 'a'.repeat(64),
    upstream: { base: null, parts: [], removed: [] },
    origin: 'demo' as const,
    status: 'complete' as const,
    branchOf: null,
  });
  const document: CanvasDocument = {
    format: CANVAS_FORMAT,
    version: CANVAS_VERSION,
    canvas: { id: 'contract-canvas', name: 'Contract', workingDirectory: '/work/contract', createdAt: 1 },
    nodes: [
      {
        id: 'q1',
        kind: 'question',
        createdAt: 1,
        position: { x: 0, y: 0 },
        size: null,
        archivedAt: null,
        excludedParts: [],
        archived: false,
        question: 'Why does the parser drop unicode quotes?',
        versions: [
          version('v1', 'Why does the parser drop unicode quotes?', 'The tokenizer strips them.', 5),
          version('v2', 'Why does the parser drop curly quotes?', 'It normalises them first.', 6),
        ],
        currentVersionId: 'v2',
        autoRerun: { enabled: false, rounds: 1 },
        model: null,
        attachments: [],
      },
    ],
    wires: [],
    attachments: [],
    dismissals: [],
    ledgers: [],
    events: [],
  };
  mkdirSync(join(weftHome, 'canvases'), { recursive: true });
  writeFileSync(
    join(weftHome, 'canvases', 'contract-canvas.weft.json'),
    JSON.stringify(storedCanvasDocument(document)),
  );
}
