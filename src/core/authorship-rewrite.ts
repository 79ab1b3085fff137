import { noteAuthor, questionAuthor, versionQuestionAuthor } from '../../protocol/index.ts';
import type { CanvasNode, QuestionNode } from '../../protocol/index.ts';

/** The text of a question or note a model or Weft wrote, or null (the person's own, or another kind of node). */
export function othersText(node: CanvasNode): string | null {
  if (node.kind === 'question') return questionAuthor(node) === 'person' ? null : node.question;
  if (node.kind === 'note') return noteAuthor(node) === 'person' ? null : node.text;
  return null;
}

/** The text of a question or note marked as the person's, or null. */
function personText(node: CanvasNode): string | null {
  if (node.kind === 'question') return questionAuthor(node) === 'person' ? node.question : null;
  if (node.kind === 'note') return noteAuthor(node) === 'person' ? node.text : null;
  return null;
}

/**
 * What a save may not change in the record the server holds (C14, issue 27.3): a question or note becomes the
 * person's only through the edit path, which changes its text — a save that hands the person a model's or the
 * app's words unchanged is a rewrite of history; and a stored version keeps the question it was asked with and
 * who wrote it, since memory reads the person's words from there. A node under an id the stored record does not
 * hold as that kind (re-added after a delete, in this save or an earlier one) is checked against what was written
 * under that id before: the stored node of another kind, and `wroteBefore` — the server's history of words a model
 * or Weft wrote under ids since removed or rewritten; a version new to the record may not say the person asked such
 * words either. Returns the first such change in words, or null.
 */
export function authorshipRewrite(
  stored: readonly CanvasNode[],
  incoming: readonly CanvasNode[],
  wroteBefore: (nodeId: string, text: string) => boolean = () => false,
): string | null {
  // Keyed on the incoming nodes: a patch puts a handful, and the stored ones are only walked.
  const after = new Map(incoming.map((node) => [node.id, node]));
  const kept = new Set<string>();
  for (const old of stored) {
    const node = after.get(old.id);
    if (!node) continue;
    if (old.kind !== node.kind) {
      const text = othersText(old);
      if (text !== null && personText(node) === text)
        return `node ${node.id} is re-made as a ${node.kind} in the person's name with words a model or Weft wrote`;
      continue;
    }
    kept.add(old.id);
    if (node.kind === 'question' && old.kind === 'question') {
      const flipped = questionAuthor(old) !== 'person' && questionAuthor(node) === 'person';
      if (flipped && node.question === old.question)
        return `question ${node.id} is marked as the person's words without an edit of its text`;
      const versionChange = versionRewrite(old, node) ?? newVersionClaim(node, old, wroteBefore);
      if (versionChange) return versionChange;
    }
    if (node.kind === 'note' && old.kind === 'note') {
      if (noteAuthor(old) !== 'person' && noteAuthor(node) === 'person' && node.text === old.text)
        return `note ${node.id} is marked as the person's words without an edit of its text`;
    }
  }
  for (const node of incoming) {
    if (kept.has(node.id)) continue;
    const text = personText(node);
    if (text !== null && wroteBefore(node.id, text))
      return `${node.kind} ${node.id} is re-added in the person's name with words a model or Weft wrote under that id`;
    const claim = node.kind === 'question' ? newVersionClaim(node, null, wroteBefore) : null;
    if (claim) return claim;
  }
  return null;
}

/**
 * A version new to the record that says the person asked words a model or Weft wrote under this node: the stored
 * node's own question when it is not the person's, or words retired from this id (an edit or a removal since).
 * An ask records who wrote the question as it was when asked, so an honest version of those words is not theirs.
 */
function newVersionClaim(
  node: QuestionNode,
  old: QuestionNode | null,
  wroteBefore: (nodeId: string, text: string) => boolean,
): string | null {
  const stored = new Set(old?.versions.map((version) => version.id));
  const others = old && questionAuthor(old) !== 'person' ? old.question : null;
  for (const version of node.versions) {
    if (stored.has(version.id) || versionQuestionAuthor(node, version) !== 'person') continue;
    if (version.question === others || wroteBefore(node.id, version.question))
      return `version ${version.id} of ${node.id} says the person asked words a model or Weft wrote`;
  }
  return null;
}

function versionRewrite(old: QuestionNode, node: QuestionNode): string | null {
  const kept = new Map(old.versions.map((version) => [version.id, version]));
  for (const version of node.versions) {
    const was = kept.get(version.id);
    if (!was) continue;
    if (version.question !== was.question)
      return `version ${version.id} of ${node.id} changes the question it was asked`;
    if (version.questionAuthor !== was.questionAuthor)
      return `version ${version.id} of ${node.id} changes who wrote the question it was asked`;
    if (was.requestHash !== null && version.requestHash !== was.requestHash)
      return `version ${version.id} of ${node.id} changes the request it was answered from`;
  }
  return null;
}
