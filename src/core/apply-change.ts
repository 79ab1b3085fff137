import type { Attachment, CanvasNode, MirrorLedger, StaleDismissal, Wire, EventRecord } from '../../protocol/index.ts';
import { applyCanvasChange } from './canvas-changes.ts';
import type { ApplyOutcome, ChangeContext, GraphChange } from './changes.ts';
import { appendEvent } from './event-log.ts';
import type { Graph } from './graph.ts';
import { GraphError } from './graph-error.ts';
import { applyMentionUpdate } from './mention-update.ts';
import { applyNodeChange } from './node-changes.ts';
import { applyRubricResult } from './rubric-result.ts';
import { applyPlaqueChange } from './plaque/plaque-change.ts';
import { failure, success, type Result } from './result.ts';
import { applyWireChange } from './wire-changes.ts';
import type { ChangeScope, Working } from './working-graph.ts';

/**
 * The one apply path (docs/architecture.md, style 3): validates the change, returns the new graph with the
 * events it implies appended to the hash-chained log, or a coded refusal. Never mutates `graph` (unless the caller
 * owns it: `context.inPlace`).
 */
export function applyChange(
  graph: Graph,
  change: GraphChange,
  context: ChangeContext,
): Result<ApplyOutcome, GraphError> {
  // Every stored time is a whole non-negative millisecond count; a fractional clock (performance.now)
  // would write events the document schema refuses on the next load.
  if (!Number.isSafeInteger(context.now) || context.now < 0) {
    return failure(
      new GraphError('invalid', `The change time must be whole milliseconds since the epoch, not ${context.now}.`),
    );
  }
  const working: Working = {
    canvas: graph.canvas,
    nodes: graph.nodes as Map<string, CanvasNode>,
    wires: graph.wires as Map<string, Wire>,
    incoming: graph.incoming as Map<string, readonly string[]>,
    outgoing: graph.outgoing as Map<string, readonly string[]>,
    attachments: graph.attachments as Map<string, Attachment>,
    dismissals: graph.dismissals as StaleDismissal[],
    ledgers: graph.ledgers as MirrorLedger[],
    drafts: [],
    created: [],
    touched: new Set(),
  };
  const copied = new Set<keyof Working>();
  const writable = <Key extends 'nodes' | 'wires' | 'incoming' | 'outgoing' | 'attachments'>(
    key: Key,
  ): Working[Key] => {
    if (!copied.has(key) && !context.inPlace) {
      (working as unknown as Record<string, unknown>)[key] = new Map(working[key] as Map<string, unknown>);
      copied.add(key);
    }
    return working[key];
  };
  const error = applyOne({ working, context, writable }, change);
  if (error) return failure(error);
  const events: EventRecord[] = [];
  // One copy of the log per change, then appends: a large batch (a 5,000-turn mirror) stays linear.
  let appended: EventRecord[] | null = null;
  for (const draft of working.drafts) {
    let record: EventRecord;
    try {
      record = appendEvent(appended ?? graph.events, draft, context);
    } catch (problem) {
      // Only text with no canonical form (a lone surrogate in an id or a metadata string) gets here.
      const reason = problem instanceof Error ? problem.message : String(problem);
      return failure(
        new GraphError(
          'invalid',
          `The ${draft.op} event for ${JSON.stringify(draft.objectId)} cannot be recorded: ${reason}.`,
        ),
      );
    }
    if (typeof record.id !== 'string' || record.id.length === 0) {
      return failure(
        new GraphError('invalid', `The ${draft.op} event got an empty id: newId must return a non-empty string.`),
      );
    }
    events.push(record);
    appended ??= context.inPlace ? (graph.events as EventRecord[]) : [...graph.events];
    appended.push(record);
  }
  const log: readonly EventRecord[] = appended ?? graph.events;
  const next: Graph = {
    canvas: working.canvas,
    nodes: working.nodes,
    wires: working.wires,
    incoming: working.incoming,
    outgoing: working.outgoing,
    attachments: working.attachments,
    dismissals: working.dismissals,
    ledgers: working.ledgers,
    events: log,
  };
  return success({ graph: next, events, created: working.created, touched: [...working.touched] });
}

/** Applies one change to the working set; `batch` applies its changes in order, all or nothing. */
function applyOne(scope: ChangeScope, change: GraphChange): GraphError | null {
  switch (change.type) {
    case 'add-node':
    case 'import-material':
    case 'edit-node':
    case 'delete-node':
    case 'move-node':
    case 'add-version':
    case 'select-version':
    case 'archive':
    case 'unarchive':
    case 'set-auto-rerun':
    case 'exclude-part':
    case 'include-part':
      return applyNodeChange(scope, change);
    case 'wire':
    case 'unwire':
    case 'set-wire-kind':
      return applyWireChange(scope, change);
    case 'update-mention':
      return applyMentionUpdate(scope, change);
    case 'add-attachment':
    case 'set-dismissal':
    case 'overrule-dismissal':
    case 'set-ledger':
    case 'rename-canvas':
    case 'set-agent-settings':
    case 'set-canvas-tools':
    case 'record':
      return applyCanvasChange(scope, change);
    case 'set-plaque':
      return applyPlaqueChange(scope, change);
    case 'record-rubric':
      return applyRubricResult(scope, change);
    case 'batch': {
      for (const inner of change.changes) {
        const failed = applyOne(scope, inner);
        if (failed) return failed;
      }
      return null;
    }
    default:
      // Changes can arrive from untyped places (a file, a message); refuse what is not one.
      return new GraphError('invalid', `Unknown change type ${JSON.stringify((change as { type?: unknown }).type)}.`);
  }
}
