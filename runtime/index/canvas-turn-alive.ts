import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateCanvasDocument, type CanvasDocument, type Version } from '../../protocol/index.ts';
import type { IndexDatabase } from './open-index-database.ts';
import { canvasKeyParts, turnKeySources } from './turn-key-sources.ts';

/** A canvas record as it is on disk now, through the named migrations; null when gone or unreadable. */
function readCanvasNow(canvasesDirectory: string, canvasId: string): CanvasDocument | null {
  try {
    const loaded = migrateCanvasDocument(
      JSON.parse(readFileSync(join(canvasesDirectory, `${canvasId}.weft.json`), 'utf8')),
    );
    return loaded.ok ? loaded.document : null;
  } catch {
    // Gone or not JSON: no document, so the turn is gone.
    return null;
  }
}

/** A canvas turn as the record holds it now: alive or not, and the version a versioned key (`canvas:c#n@v`) cites. */
export interface CanvasTurnNow {
  alive: boolean;
  /** The cited version, when the key names one and it is kept; the index holds only the node's current version. */
  version: Version | null;
}

/**
 * Whether a canvas turn the index holds is still alive on its canvas record now: `turnKeySources` decides, as it
 * does for dossiers and recall, because the index may not have read an archive or a deletion yet. A record that is
 * gone or cannot be read leaves the turn gone, as there. Any other key is not a canvas turn: alive here.
 */
export function canvasTurnNow(database: IndexDatabase, canvasesDirectory: string, turnKey: string): CanvasTurnNow {
  const parts = canvasKeyParts(turnKey);
  if (!parts) return { alive: true, version: null };
  const document = readCanvasNow(canvasesDirectory, parts.canvasId);
  const alive = !turnKeySources(database, document ? [document] : []).gone(turnKey);
  if (!alive || parts.versionId === undefined || !document) return { alive, version: null };
  const node = document.nodes.find((each) => each.id === parts.nodeId);
  const version =
    node?.kind === 'question' ? (node.versions.find((each) => each.id === parts.versionId) ?? null) : null;
  return { alive, version };
}
