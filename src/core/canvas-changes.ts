import {
  EventMetaSchema,
  MirrorLedgerSchema,
  StaleDismissalSchema,
  type StaleDismissal,
} from '../../protocol/index.ts';
import type { GraphChange } from './changes.ts';
import type { EventDraft } from './event-log.ts';
import { GraphError } from './graph-error.ts';
import { DISMISS_BELOW } from './shown-stale.ts';
import { addAttachment, findNode, recordEvent, type ChangeScope } from './working-graph.ts';

export type CanvasChange = Extract<
  GraphChange,
  {
    type:
      | 'add-attachment'
      | 'set-dismissal'
      | 'overrule-dismissal'
      | 'set-ledger'
      | 'rename-canvas'
      | 'set-agent-settings'
      | 'set-canvas-tools'
      | 'record';
  }
>;

/** Changes beside the nodes and wires: attachments, stale verdicts, mirror ledgers, the name, decisions. */
export function applyCanvasChange(scope: ChangeScope, change: CanvasChange): GraphError | null {
  const { working, context, writable } = scope;
  const needNode = (nodeId: string) => findNode(working, nodeId);
  const emit = (op: string, objectId: string, meta: EventDraft['meta'] = {}) =>
    recordEvent(working, op, objectId, meta);

  switch (change.type) {
    case 'add-attachment':
      return addAttachment(working, change.attachment, writable);
    case 'set-dismissal': {
      const node = needNode(change.nodeId);
      if (node instanceof GraphError) return node;
      // A probability outside [0, 1] (or NaN, which would dismiss) must not reach the file: it would no longer load.
      const checked = StaleDismissalSchema.safeParse({
        nodeId: node.id,
        fingerprint: change.fingerprint,
        probability: change.probability,
        reason: String(change.reason).slice(0, 500),
        at: context.now,
        overruled: false,
      });
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        return new GraphError('invalid', `Stale verdict: ${issue.path.join('.')}: ${issue.message}`, {
          nodeId: node.id,
        });
      }
      const dismissal: StaleDismissal = checked.data;
      working.dismissals = [
        ...working.dismissals.filter((item) => !(item.nodeId === node.id && item.fingerprint === change.fingerprint)),
        dismissal,
      ];
      emit('stale-verdict', node.id, {
        fingerprint: change.fingerprint,
        probability: change.probability,
        dismissed: change.probability < DISMISS_BELOW,
      });
      return null;
    }
    case 'overrule-dismissal': {
      const index = working.dismissals.findIndex(
        (item) => item.nodeId === change.nodeId && item.fingerprint === change.fingerprint,
      );
      if (index < 0)
        return new GraphError('not-found', `No stale verdict on ${change.nodeId} for that fingerprint.`, {
          nodeId: change.nodeId,
        });
      const dismissals = [...working.dismissals];
      dismissals[index] = { ...dismissals[index]!, overruled: change.overruled };
      working.dismissals = dismissals;
      emit('stale-overrule', change.nodeId, { fingerprint: change.fingerprint, overruled: change.overruled });
      return null;
    }
    case 'set-ledger': {
      const checked = MirrorLedgerSchema.safeParse(change.ledger);
      if (!checked.success) return new GraphError('invalid', `Mirror ledger: ${checked.error.issues[0]!.message}`);
      const ledger = checked.data;
      working.ledgers = [
        ...working.ledgers.filter((item) => !(item.runner === ledger.runner && item.sessionId === ledger.sessionId)),
        ledger,
      ];
      emit('mirror-ledger', ledger.sessionId, {
        runner: ledger.runner,
        turns: ledger.turnKeys.length,
        following: ledger.following,
      });
      return null;
    }
    case 'rename-canvas': {
      const name = change.name.trim();
      if (name.length === 0 || name.length > 200)
        return new GraphError('invalid', 'A canvas name has 1 to 200 characters.');
      working.canvas = { ...working.canvas, name };
      emit('rename', working.canvas.id, {});
      return null;
    }
    case 'set-agent-settings': {
      const folder = change.workingDirectory?.trim() || null;
      // Absolute only: a relative folder would mean whatever the server's own cwd is.
      if (folder !== null && !folder.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(folder))
        return new GraphError('invalid', 'The working directory must be an absolute path.');
      if (!['ask', 'auto-review', 'allow'].includes(change.guard))
        return new GraphError('invalid', `Unknown guard mode ${String(change.guard)}.`);
      if (change.network !== undefined && typeof change.network !== 'boolean')
        return new GraphError('invalid', 'The network setting is on or off.');
      const network = change.network ?? working.canvas.agentNetwork === true;
      working.canvas = { ...working.canvas, workingDirectory: folder, agentGuard: change.guard, agentNetwork: network };
      emit('agent-settings', working.canvas.id, { guard: change.guard, hasFolder: folder !== null, network });
      return null;
    }
    case 'set-canvas-tools': {
      if (typeof change.allowed !== 'boolean')
        return new GraphError('invalid', 'The canvas tools switch is on or off.');
      working.canvas = { ...working.canvas, toolsAllowed: change.allowed };
      emit('canvas-tools', working.canvas.id, { allowed: change.allowed });
      return null;
    }
    case 'record': {
      const checked = EventMetaSchema.safeParse(change.event.meta);
      if (!checked.success || change.event.op.length === 0) {
        return new GraphError(
          'invalid',
          `Event ${change.event.op || '(no op)'}: metadata must be short strings, numbers, booleans or null.`,
        );
      }
      emit(change.event.op, change.event.objectId, checked.data);
      return null;
    }
  }
}
