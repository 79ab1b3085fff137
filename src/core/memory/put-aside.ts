import type { CanvasNode } from '../../../protocol/index.ts';
import { jsHashPort, type HashPort } from '../hash-port.ts';
import { normaliseText } from './normalise-text.ts';

/**
 * Where put-aside content came from. A tombstone matches only content of its own kind: archiving a canvas turn puts
 * aside those words as a canvas turn, not a session turn that happens to say the same thing.
 */
export const PUT_ASIDE_KINDS = ['canvas-turn', 'session-turn', 'imported-message', 'dossier-sentence'] as const;
export type PutAsideKind = (typeof PUT_ASIDE_KINDS)[number];

/** The keys of every tombstone in force (what the store replays to); a read path asks it through `isPutAside`. */
export type PutAsides = ReadonlySet<string>;

/**
 * The stable content key of a tombstone: `<kind>:` and the SHA-256 of the normalised text (`normaliseText`, so
 * spacing, case and typographic quotes do not let the same words back in). Keyed on content, not on the node: the
 * same words re-asked, re-imported or re-mirrored under a new id have the same key.
 */
export function contentKey(kind: PutAsideKind, text: string, hash: HashPort = jsHashPort): string {
  return `${kind}:${hash.sha256Hex(normaliseText(text))}`;
}

/**
 * The one check every read path makes: whether `text` of `kind` was put aside. Text that normalises to nothing is
 * never put aside (an empty question carries no content to keep out).
 */
export function isPutAside(
  putAsides: PutAsides,
  kind: PutAsideKind,
  text: string,
  hash: HashPort = jsHashPort,
): boolean {
  if (putAsides.size === 0 || normaliseText(text) === '') return false;
  return putAsides.has(contentKey(kind, text, hash));
}

/** A canvas node's put-aside content: a question's words, a mirrored turn's question; null for any other node. */
export function nodeContent(node: CanvasNode): { kind: PutAsideKind; text: string } | null {
  if (node.kind === 'mirror') return { kind: 'session-turn', text: node.source.question };
  if (node.kind !== 'question') return null;
  // An imported conversation's question has only imported answers; anything asked since makes it a canvas turn.
  const imported = node.versions.length > 0 && node.versions.every((version) => version.origin === 'imported');
  return { kind: imported ? 'imported-message' : 'canvas-turn', text: node.question };
}
