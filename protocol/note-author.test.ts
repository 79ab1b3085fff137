import { describe, expect, it } from 'vitest';
import { migrateCanvasDocument } from './canvas-migrations.ts';
import { LEGACY_DEMO_NOTE, noteAuthor } from './note-author.ts';

const note = (id: string, text: string, author?: 'person' | 'app') => ({
  id,
  kind: 'note',
  text,
  ...(author ? { author } : {}),
  createdAt: 1,
  position: { x: 0, y: 0 },
  size: null,
  archived: false,
  archivedAt: null,
  excludedParts: [],
});

/** A version-2 document from before notes recorded an author. */
const legacy = {
  format: 'weft.canvas',
  version: 2,
  canvas: { id: 'legacy', name: 'Legacy', workingDirectory: null, createdAt: 1 },
  nodes: [
    note('mine', 'I prefer metric units in every answer.'),
    note('demo', LEGACY_DEMO_NOTE),
    note('compaction', '**Context compacted** before turn 4 of this session.\n\nEarlier: two files were written.'),
    note('subagent', '**Context compacted** before turn 2 of this subagent run.'),
    note('quoted', 'I wrote: **Context compacted** before turn 4 of this session.'),
  ],
  wires: [],
  attachments: [],
  dismissals: [],
  ledgers: [],
  events: [],
};

describe('note authorship (C14): the rule for documents from before `author`', () => {
  it('loads an old document unchanged and reads the app’s own notes as the app’s, every other note as the person’s', () => {
    const loaded = migrateCanvasDocument(legacy);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.document.nodes.map((node) => node.kind === 'note' && node.author)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(loaded.document.nodes.map((node) => (node.kind === 'note' ? [node.id, noteAuthor(node)] : null))).toEqual([
      ['mine', 'person'],
      ['demo', 'app'],
      ['compaction', 'app'],
      ['subagent', 'app'],
      ['quoted', 'person'],
    ]);
  });

  it('an author that is set wins over the rule, either way', () => {
    expect(noteAuthor({ text: LEGACY_DEMO_NOTE, author: 'person' })).toBe('person');
    expect(noteAuthor({ text: 'I like tea.', author: 'app' })).toBe('app');
  });

  it('refuses an author that is neither', () => {
    const bad = { ...legacy, nodes: [note('x', 'text', 'model' as 'app')] };
    const loaded = migrateCanvasDocument(bad);
    expect(loaded.ok ? null : [loaded.error.code, loaded.error.path]).toEqual(['corrupt', 'nodes.0.author']);
  });
});
