import { describe, expect, it } from 'vitest';
import { agentMaterialFiles, agentMaterialsFolder, AGENT_MATERIAL_FILE_NAME } from './agent-materials.ts';
import { buildAgentPrompt } from './agent-prompt.ts';
import { TestCanvas } from './test-canvas.ts';

function withMaterials() {
  const canvas = new TestCanvas();
  const spec = canvas.addMaterial('Lexer spec: tokens/ÜTF', 'Tokens are separated by spaces.', {
    type: 'url',
    url: 'http://127.0.0.1/spec',
    finalUrl: 'http://127.0.0.1/spec',
    fetchedAt: 0,
    title: 'Spec',
  });
  const notes = canvas.addMaterial('Notes', 'Keep tests small.');
  const target = canvas.addQuestion('Add a test for the lexer.');
  canvas.wire(spec, target);
  canvas.wire(notes, target);
  return { canvas, spec, notes, target };
}

describe('agent materials as files (C24)', () => {
  it('each material in the compiled context becomes a file with its provenance, named safely', () => {
    const { canvas, target } = withMaterials();
    const files = agentMaterialFiles(canvas.graph, canvas.compiled(target));
    expect(files.map((file) => file.fileName)).toEqual(['1-lexer-spec-tokens-utf.md', '2-notes.md']);
    for (const file of files) expect(file.fileName).toMatch(AGENT_MATERIAL_FILE_NAME);
    expect(files[0]!.text).toContain('Source: http://127.0.0.1/spec (snapshot fetched 1970-01-01');
    expect(files[0]!.text).toContain('Tokens are separated by spaces.');
  });

  it('a material the person left out is not copied', () => {
    const { canvas, spec, target } = withMaterials();
    canvas.apply({ type: 'exclude-part', nodeId: target, partId: `${spec}:material` });
    expect(agentMaterialFiles(canvas.graph, canvas.compiled(target)).map((file) => file.title)).toEqual(['Notes']);
  });

  it('the block names each copied file in the folder inside the working directory', () => {
    const { canvas, target } = withMaterials();
    const compiled = canvas.compiled(target);
    const folder = agentMaterialsFolder('/work/repo', target);
    const prompt = buildAgentPrompt(compiled, {
      continued: false,
      materials: { folder, files: agentMaterialFiles(canvas.graph, compiled) },
    });
    expect(folder).toBe(`/work/repo/.weft/materials/${target}`);
    expect(prompt.block).toContain(`- ${folder}/1-lexer-spec-tokens-utf.md (Lexer spec: tokens/ÜTF)`);
    expect(prompt.block).toContain(`- ${folder}/2-notes.md (Notes)`);
    expect(prompt.text.endsWith('\n\nAdd a test for the lexer.')).toBe(true);
  });

  it('a node id that is not a safe folder name is hashed into one', () => {
    expect(agentMaterialsFolder('/r/', '../x')).toMatch(/^\/r\/\.weft\/materials\/node-[0-9a-f]{16}$/);
    expect(agentMaterialsFolder('C:\\repo', 'n1')).toBe('C:\\repo\\.weft\\materials\\n1');
  });
});
