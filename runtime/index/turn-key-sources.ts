import type { CanvasDocument, KnownAs } from '../../protocol/index.ts';
import { isLive, isPutAside, nodeContent, type HashPort, type PutAsides } from '../../src/core/index.ts';
import { turnKnownAs } from '../../src/core/recall/index.ts';
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

/**
 * Where a turn key's source stands now: gone (archived or deleted, or its content put aside), or live with the
 * folder it was asked in.
 */
export interface TurnKeySources {
  gone(key: string): boolean;
  /**
   * Whether the turn is still there (a live node, a session turn the index holds) but its content is put aside (issue
   * 29.2); such a turn is also `gone`.
   */
  putAside(key: string): boolean;
  /** The folder it was asked in (a session turn's cwd, a canvas's working directory); null when gone or unknown. */
  folder(key: string): string | null;
  /** #29: how the turn is known: `reconstructed` when the runner marked it interrupted, else `observed`. */
  knownAs(key: string): KnownAs;
}

/**
 * C15 + C16: one lookup of turn keys for both dossiers and recall. A canvas key is gone when its canvas or node is
 * gone, the node is archived, or the version it cites is no longer kept (read from the canvas records now, not the
 * index, which may not have seen the archive yet); any other key when the index no longer holds it (every session
 * key is gone without an index). Either is also gone when its content is put aside (`isPutAside`, the one check
 * every read path makes): a canvas node's by its own content, a session turn's by its question as a session turn.
 */
export function turnKeySources(
  database: IndexDatabase | null,
  canvases: readonly CanvasDocument[],
  putAsides: PutAsides = new Set(),
  hash?: HashPort,
): TurnKeySources {
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
    `SELECT cwd, user_text AS text, status FROM turns WHERE turn_key = @key
     UNION ALL SELECT cwd, NULL AS text, NULL AS status FROM materials WHERE turn_key = @key LIMIT 1`,
  );
  const cache = new Map<string, { gone: boolean; putAside: boolean; folder: string | null; knownAs: KnownAs }>();
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
        // Put aside means the source is still there but its words are not: an archived node stays `archived-source`.
        const content = kept ? nodeContent(node) : null;
        const putAside = content !== null && isPutAside(putAsides, content.kind, content.text, hash);
        found = {
          gone: !kept || putAside,
          putAside,
          folder: kept && !putAside ? (document!.canvas.workingDirectory ?? null) : null,
          knownAs: 'observed',
        };
      } else {
        const row = known?.get({ key }) as
          { cwd: string | null; text: string | null; status: string | null } | undefined;
        const putAside = row?.text != null && isPutAside(putAsides, 'session-turn', row.text, hash);
        found = {
          gone: row === undefined || putAside,
          putAside,
          folder: putAside ? null : (row?.cwd ?? null),
          knownAs: turnKnownAs(row?.status, false).knownAs,
        };
      }
      cache.set(key, found);
    }
    return found;
  };
  return {
    gone: (key) => look(key).gone,
    putAside: (key) => look(key).putAside,
    folder: (key) => look(key).folder,
    knownAs: (key) => look(key).knownAs,
  };
}
