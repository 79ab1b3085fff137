import { describe, expect, it } from 'vitest';
import { canvasKeyParts as dossierCanvasKeyParts } from '../dossiers/index.ts';
import { canvasKeyParts } from './index.ts';

describe('one parser of canvas turn keys', () => {
  it('reads a canvas key with or without its version; any other key is not a canvas key', () => {
    expect(canvasKeyParts('canvas:c1#n1@v1')).toEqual({ canvasId: 'c1', nodeId: 'n1', versionId: 'v1' });
    expect(canvasKeyParts('canvas:c1#n1')).toEqual({ canvasId: 'c1', nodeId: 'n1' });
    expect(canvasKeyParts('claude-code:session#3')).toBeNull();
    expect(canvasKeyParts('canvas:c1#n1@v1@v2')).toBeNull();
  });

  it('a dossier citation needs the version: without one it is not a canvas turn it can read', () => {
    expect(dossierCanvasKeyParts('canvas:c1#n1@v1')).toEqual({ canvasId: 'c1', nodeId: 'n1', versionId: 'v1' });
    expect(dossierCanvasKeyParts('canvas:c1#n1')).toBeNull();
  });
});
