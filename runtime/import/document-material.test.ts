import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyChange, compile, emptyGraph } from '../../src/core/index.ts';
import { documentMaterial } from './document-material.ts';

const FIXTURES = join(import.meta.dirname, '../../tests/fixtures/imports');
const NOW = 1_800_000_000_000;

async function fixture(name: string) {
  const bytes = new Uint8Array(await readFile(join(FIXTURES, name)));
  return { bytes, material: await documentMaterial(name, bytes, NOW) };
}

describe('documents as materials', () => {
  it('keeps Markdown as written, titled by its first heading', async () => {
    const { bytes, material } = await fixture('reading-list.md');
    expect(material.title).toBe('Reading list for the beekeeping course');
    expect(material.text).toContain('- Seeley, **Honeybee Democracy** (swarm decisions)');
    expect(material.provenance).toEqual({
      type: 'file',
      fileName: 'reading-list.md',
      format: 'markdown',
      documentHash: createHash('sha256').update(bytes).digest('hex'),
      importedAt: NOW,
    });
  });

  it('reads HTML as URL snapshots do: the article, without navigation, scripts or footer', async () => {
    const { material } = await fixture('varroa-article.html');
    expect(material.title).toBe('Counting varroa mites | Apiary Notes');
    expect(material.text).toContain('An alcohol wash of about 300 bees');
    expect(material.text).toContain('nurse bees carry more mites than foragers');
    expect(material.text).not.toContain('window.tracking');
    expect(material.text).not.toContain('Subscribe');
    expect(material.provenance.format).toBe('html');
  });

  it('reads DOCX paragraphs with mammoth', async () => {
    const { material } = await fixture('field-notes.docx');
    expect(material.text).toBe(
      'Field notes: hive inspection\n\nThe brood pattern was solid on six frames.\n\nTwo queen cups were found, both empty — no swarm preparations yet.',
    );
    expect(material).toMatchObject({
      title: 'field-notes',
      provenance: { format: 'docx', fileName: 'field-notes.docx' },
    });
  });

  it('refuses other files, damaged DOCX and non-UTF-8 text', async () => {
    await expect(documentMaterial('photo.png', new Uint8Array([1, 2]), NOW)).rejects.toMatchObject({
      code: 'import-unsupported-file',
    });
    await expect(documentMaterial('broken.docx', new TextEncoder().encode('not a zip'), NOW)).rejects.toMatchObject({
      code: 'import-malformed',
    });
    await expect(documentMaterial('latin.md', new Uint8Array([0x63, 0x61, 0x66, 0xe9]), NOW)).rejects.toMatchObject({
      code: 'import-malformed',
    });
  });

  it('enters context with its provenance line', async () => {
    const { material } = await fixture('field-notes.docx');
    let graph = emptyGraph({ id: 'c', name: 'c', workingDirectory: null, createdAt: NOW });
    let counter = 0;
    const context = { now: NOW, newId: () => `n${(counter += 1)}` };
    const added = applyChange(graph, { type: 'import-material', material: { kind: 'material', ...material } }, context);
    if (!added.ok) throw added.error;
    graph = added.value.graph;
    const materialId = added.value.created[0]!;
    const asked = applyChange(
      graph,
      { type: 'add-node', node: { kind: 'question', question: 'Any swarm signs?' } },
      context,
    );
    if (!asked.ok) throw asked.error;
    const questionId = asked.value.created[0]!;
    const wired = applyChange(
      asked.value.graph,
      { type: 'wire', from: materialId, to: questionId, kind: 'solid' },
      context,
    );
    if (!wired.ok) throw wired.error;
    const first = compile(wired.value.graph, questionId).messages[0]!;
    expect(JSON.stringify(first.content)).toContain(
      'Source: field-notes.docx (docx, imported 2027-01-15T08:00:00.000Z)',
    );
  });
});
