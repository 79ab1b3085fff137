// Canvases for `bench:ui` (`tests/support/chain-canvas.ts`), fingerprinted with OpenSSL's SHA-256 as the server does.
import type { CanvasDocument } from '../../protocol/index.ts';
import { nodeHashPort } from '../../runtime/hash/index.ts';
import { chainCanvas as chains } from '../../tests/support/index.ts';

/** `chains` columns of `depth` answered questions; `plaques`: each answer also gets its display-only plaque (C32). */
export function chainCanvas(
  id: string,
  count: number,
  depth: number,
  options: { plaques?: boolean } = {},
): CanvasDocument {
  return chains(id, count, depth, { ...options, hash: nodeHashPort });
}
