import type { CanvasDocument } from '../../protocol/index.ts';
import { isLive } from '../../src/core/index.ts';
import type { IndexDatabase } from './open-index-database.ts';

/** `canvas:<canvas>#<node>` with an optional `@<version>` (a dossier cites a version, recall a node). */
const CANVAS_KEY = /^canvas:([^#]+)#([^@#]+)(?:@([^@#]+))?$/;

/**
 * A canvas turn key's parts; null for any other key (an agent-session turn). The version is optional here: a
 * caller that needs one (a dossier's citation) checks `versionId` itself.
 */
export function canvasKeyParts(turnKey: string): { canvasId: string; nodeId: string; versionId?: string } | null {
  const match = CANVAS_KEY.exec(turnKey);
  if (!match) return null;
  return { canvasId: match[1]!, nodeId: match[2]!, ...(match[3] !== undefined && { versionId: match[3] }) };
}

/** Where a turn key's source stands now: gone (archived or deleted), or live with the folder it was asked in. */
export interface TurnKeySources {
  gone(key: string): boolean;
  /** The folder it was asked in (a session turn's cwd, a canvas's working directory); null when gone or unknown. */
  folder(key: string): string | null;
}

/**
 * C15 + C16: one lookup of turn keys for both dossiers and recall. A canvas key is gone when its canvas or node is
 * gone, the node is archived, or the version it cites is no longer kept (read from the canvas records now, not the
 * index, which may not have seen the archive yet); any other key when the index no longer holds it (every session
 * key is gone without an index).
 */
export function turnKeySources(database: IndexDatabase | null, canvases: readonly CanvasDocument[]): TurnKeySources {
  const documents = new Map(canvases.map((document) => [document.canvas.id, document]));
  // Each canvas's nodes by id, built the first time one of its keys is asked about.
  const nodesOf = new Map<string, Map<string, CanvasDocument['nodes'][number]>>();
  const nodeOf = (canvasId: string, nodeId: string) => {
    let nodes = nodesOf.get(canvasId);
    if (!nodes) {
      nodes = new Map((documents.get(canvasId)?.nodes ?? []).map((node) => [node.id, node]));
      nodesOf.set(canvasId, nodes);
    }
    return nodes.get(nodeId);
  };
  const known = database?.prepare(
    `SELECT cwd FROM turns WHERE turn_key = @key UNION ALL SELECT cwd FROM materials WHERE turn_key = @key LIMIT 1`,
  );
  const cache = new Map<string, { gone: boolean; folder: string | null }>();
  const look = (key: string) => {
    let found = cache.get(key);
    if (found === undefined) {
      const canvas = canvasKeyParts(key);
      if (canvas) {
        const document = documents.get(canvas.canvasId);
        const node = nodeOf(canvas.canvasId, canvas.nodeId);
        const version = canvas.versionId;
        const kept =
          node !== undefined &&
          isLive(node) &&
          (version === undefined || (node.kind === 'question' && node.versions.some((each) => each.id === version)));
        found = { gone: !kept, folder: kept ? (document!.canvas.workingDirectory ?? null) : null };
      } else {
        const row = known?.get({ key }) as { cwd: string | null } | undefined;
        found = { gone: row === undefined, folder: row?.cwd ?? null };
      }
      cache.set(key, found);
    }
    return found;
  };
  return { gone: (key) => look(key).gone, folder: (key) => look(key).folder };
}
