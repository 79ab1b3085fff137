import { WeftError } from '../../protocol/index.ts';

/**
 * Stable codes for every refusal the core makes. The UI maps a code to its message;
 * `details` carries machine-readable context (for `cycle`, the node path that would close).
 */
export type GraphErrorCode =
  /** The wire would close a cycle; `details.path` lists the node ids from `to` back round to `to`. */
  | 'cycle'
  /** A node, wire, version or dismissal id that is not in the graph. */
  | 'not-found'
  /** The change is well-formed but not allowed for this node kind or state. */
  | 'invalid'
  /** An id that is already taken. */
  | 'duplicate'
  /** The node is archived and the operation needs a live node. */
  | 'archived';

export interface GraphErrorDetails {
  path?: string[];
  nodeId?: string;
  wireId?: string;
  [key: string]: unknown;
}

export class GraphError extends WeftError {
  declare readonly code: GraphErrorCode;
  readonly details: GraphErrorDetails;

  constructor(code: GraphErrorCode, message: string, details: GraphErrorDetails = {}) {
    super(code, message, null);
    this.name = 'GraphError';
    this.details = details;
  }
}
