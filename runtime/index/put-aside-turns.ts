import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateCanvasDocument, type CanvasDocument, type Version } from '../../protocol/index.ts';
import type { HashPort, PutAsides } from '../../src/core/index.ts';
import type { IndexDatabase } from './open-index-database.ts';
import { canvasKeyParts, turnKeySources, type TurnKeySources } from './turn-key-sources.ts';

/** A canvas record as it is on disk now, or null when it is gone or unreadable. */
function canvasRecord(canvasesDirectory: string, canvasId: string): CanvasDocument | null {
  try {
    const loaded = migrateCanvasDocument(
      JSON.parse(readFileSync(join(canvasesDirectory, `${canvasId}.weft.json`), 'utf8')),
    );
    return loaded.ok ? loaded.document : null;
  } catch {
    return null; // Gone or not JSON.
  }
}

/**
 * The index's read paths (`find`, `why`, `recall`, the MCP tools) ask through this which turns to leave out:
 * `turnKeySources` per canvas record read now (so an archive the index has not seen yet counts), and for a
 * session turn its question checked against the tombstones. One lookup per call, canvases read once each.
 */
export function indexTurnLookup(
  database: IndexDatabase,
  canvasesDirectory: string,
  putAsides: PutAsides,
  hash?: HashPort,
): TurnKeySources {
  const byCanvas = new Map<string, TurnKeySources>();
  const sessions = turnKeySources(database, [], putAsides, hash);
  const sourcesOf = (key: string): TurnKeySources => {
    const parts = canvasKeyParts(key);
    if (!parts) return sessions;
    let sources = byCanvas.get(parts.canvasId);
    if (!sources) {
      const document = canvasRecord(canvasesDirectory, parts.canvasId);
      sources = turnKeySources(database, document ? [document] : [], putAsides, hash);
      byCanvas.set(parts.canvasId, sources);
    }
    return sources;
  };
  return {
    gone: (key) => sourcesOf(key).gone(key),
    putAside: (key) => sourcesOf(key).putAside(key),
    folder: (key) => sourcesOf(key).folder(key),
    knownAs: (key) => sourcesOf(key).knownAs(key),
  };
}

/** The version a versioned canvas key (`canvas:c#n@v`) cites, as its record holds it now; null when not kept. */
export function canvasVersionNow(canvasesDirectory: string, turnKey: string): Version | null {
  const parts = canvasKeyParts(turnKey);
  if (parts?.versionId === undefined) return null;
  const node = canvasRecord(canvasesDirectory, parts.canvasId)?.nodes.find((each) => each.id === parts.nodeId);
  return node?.kind === 'question' ? (node.versions.find((each) => each.id === parts.versionId) ?? null) : null;
}
