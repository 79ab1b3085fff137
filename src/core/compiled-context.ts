import type { RequestMessage } from '../../protocol/index.ts';
import type { RoleSource } from './resolve-role.ts';

/** The fixed mark a stale answer carries wherever it enters context (C6). */
export const STALE_MARK = '[Stale: this answer was written against an earlier version of its upstream]';

/** Which layer of the compiled context a message belongs to (C5 order). */
export type ContextLayer = 'role' | 'materials' | 'references' | 'chain' | 'question';

/** What a message part is, from the person's point of view. */
export type PartKind = 'role' | 'material' | 'reference' | 'question' | 'answer' | 'note' | 'execution' | 'attachment';

/**
 * Where a message came from. `partId` is what the person puts into a node's `excludedParts`
 * to leave it out: `<nodeId>:<part>`, or `attachment:<hash>` for an image; a bare node id
 * excludes every part of that node.
 */
export interface CompiledSource {
  nodeId: string;
  layer: ContextLayer;
  part: PartKind;
  partId: string;
  /** Parallel to the message's `content`: the part id of each content part. */
  contentPartIds: string[];
}

export interface LayerTokens {
  role: number;
  materials: number;
  references: number;
  chain: number;
  question: number;
  total: number;
}

export interface CompiledContext {
  /** The node this context was compiled for (its question is the last message). */
  nodeId: string;
  messages: RequestMessage[];
  /** Parallel to `messages`. */
  sources: CompiledSource[];
  tokens: LayerTokens;
  /** Attachment hashes in the order they first appear, de-duplicated. */
  attachments: string[];
  /** C29: the role sent first (its text and the node that set it), or null. */
  role: RoleSource | null;
  /** C29: set when parents bring different roles and no pick settles it; nothing may be sent until one is picked. */
  roleConflict: RoleSource[] | null;
}
