import type { LineOrigin } from '../../protocol/index.ts';
import { isLive, isPutAside, nodeContent, type HashPort } from '../../src/core/index.ts';
import { readPutAsides, type CanvasStore } from '../fs/index.ts';

/**
 * Issue 29.2: whether the turn a memory proposal or judgement rests on is put aside — its node gone or archived on
 * the stored canvas, or its words under a tombstone. What the person put aside never reaches memory by this path
 * either: the judge refuses such an exchange and a waiting proposal from it cannot be accepted. An origin that names
 * no canvas turn (a line typed by the person) rests on nothing put aside.
 */
export async function turnPutAside(
  canvases: Pick<CanvasStore, 'read'>,
  home: string,
  origin: Pick<LineOrigin, 'canvasId' | 'nodeId'>,
  hash?: HashPort,
): Promise<boolean> {
  if (!origin.canvasId || !origin.nodeId) return false;
  const stored = await canvases.read(origin.canvasId).catch(() => null);
  const node = stored?.document.nodes.find((each) => each.id === origin.nodeId);
  if (!node || !isLive(node)) return true;
  const content = nodeContent(node);
  return content !== null && isPutAside(readPutAsides(home), content.kind, content.text, hash);
}
