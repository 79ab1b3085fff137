import type { CanvasDocument } from '../../protocol/index.ts';
import type { IndexDatabase } from '../index/index.ts';

const CANVAS_KEY = /^canvas:([^#]+)#([^@]+)(?:@.*)?$/;

/**
 * C16: whether a turn key's source is archived or deleted, so a turn (or a dossier sentence citing only such
 * turns) never reaches recall. A canvas key is gone when its canvas or node is gone or the node is archived (read
 * from the canvas records now, not the index, which may not have seen the archive yet); any other key when the
 * index no longer holds it.
 */
export function sourceGone(database: IndexDatabase, canvases: readonly CanvasDocument[]): (key: string) => boolean {
  const nodes = new Map<string, Map<string, boolean>>();
  for (const document of canvases)
    nodes.set(document.canvas.id, new Map(document.nodes.map((node) => [node.id, node.archived])));
  const known = database.prepare(
    `SELECT 1 FROM turns WHERE turn_key = @key UNION ALL SELECT 1 FROM materials WHERE turn_key = @key LIMIT 1`,
  );
  const cache = new Map<string, boolean>();
  return (key) => {
    let gone = cache.get(key);
    if (gone === undefined) {
      const canvas = CANVAS_KEY.exec(key);
      if (canvas) {
        const archived = nodes.get(canvas[1]!)?.get(canvas[2]!);
        gone = archived === undefined || archived;
      } else gone = known.get({ key }) === undefined;
      cache.set(key, gone);
    }
    return gone;
  };
}
