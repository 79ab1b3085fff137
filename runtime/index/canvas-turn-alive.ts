import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateCanvasDocument, type CanvasDocument } from '../../protocol/index.ts';
import type { IndexDatabase } from './open-index-database.ts';
import { canvasKeyParts, turnKeySources } from './turn-key-sources.ts';

/**
 * Whether a canvas turn the index holds is still alive on its canvas record now: `turnKeySources` decides, as it
 * does for dossiers and recall, because the index may not have read an archive or a deletion yet. A record that is
 * gone or cannot be read leaves the turn gone, as there. Any other key is not a canvas turn: alive here.
 */
export function canvasTurnAlive(database: IndexDatabase, canvasesDirectory: string, turnKey: string): boolean {
  const parts = canvasKeyParts(turnKey);
  if (!parts) return true;
  let document: CanvasDocument | null = null;
  try {
    const loaded = migrateCanvasDocument(
      JSON.parse(readFileSync(join(canvasesDirectory, `${parts.canvasId}.weft.json`), 'utf8')),
    );
    if (loaded.ok) document = loaded.document;
  } catch {
    // Gone or not JSON: no document, so the turn is gone.
  }
  return !turnKeySources(database, document ? [document] : []).gone(turnKey);
}
