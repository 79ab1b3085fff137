import { describe, expect, it } from 'vitest';
import { rendererMapProblems } from './check-renderer-map.ts';
import type { RendererZone } from './layer-rules.ts';

const PLUMBING = ['tokens', 'store'];
const ZONES: RendererZone[] = [
  { folder: 'tokens', mayImport: [], why: '' },
  { folder: 'store', mayImport: ['tokens'], why: '' },
  { folder: 'atlas', mayImport: PLUMBING, why: '' },
  { folder: 'canvas', mayImport: [...PLUMBING, 'atlas'], why: '' },
  { folder: 'app', mayImport: [...PLUMBING, 'atlas', 'canvas'], why: '' },
];

const map = (rows: string) => `# Map

## Inside the renderer (src/ui)

| folder | holds | may import (besides core and protocol) | why |
|---|---|---|---|
${rows}
## Next
`;

const AGREEING = [
  '| `tokens/` | counts | nothing | x |',
  '| `store/` | state | tokens | x |',
  '| `atlas/` | Atlas | the plumbing above | x |',
  '| `canvas/` | cards | the plumbing, atlas | x |',
  '| `app/` | shell | every folder | x |',
].join('\n');

describe('the renderer table in the map and RENDERER_ZONES', () => {
  it('agree when every row names what its zone may import', () => {
    expect(rendererMapProblems(map(AGREEING), ZONES, PLUMBING)).toEqual([]);
  });

  it('fails when a row lets a folder import more than the check allows', () => {
    const wider = AGREEING.replace('| the plumbing, atlas |', '| the plumbing, atlas, app |');
    expect(rendererMapProblems(map(wider), ZONES, PLUMBING)).toEqual([
      'the renderer table says canvas/ may import [app, atlas, store, tokens], RENDERER_ZONES says [atlas, store, tokens]',
    ]);
  });

  it('fails when a declared folder is missing from the table, or the table lists one not declared', () => {
    const rows = AGREEING.replace(
      '| `atlas/` | Atlas | the plumbing above | x |',
      '| `recall/` | recall | the plumbing | x |',
    );
    expect(rendererMapProblems(map(rows), ZONES, PLUMBING)).toEqual([
      'the renderer table does not list atlas/ (RENDERER_ZONES does)',
      'the renderer table lists recall/, which RENDERER_ZONES does not declare',
    ]);
  });

  it('fails when the map has no renderer table at all', () => {
    expect(rendererMapProblems('# Map\n', ZONES, PLUMBING)).toHaveLength(1);
  });
});
