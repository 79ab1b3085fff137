import { applyCanvasPatch, type CanvasDocument, type CanvasPatch, WeftError } from '../../protocol/index.ts';
import { assertEventPrefix } from './event-prefix.ts';

function invalid(message: string): WeftError {
  return new WeftError('invalid-canvas', `Not a valid canvas change: ${message}.`, 400);
}

/**
 * The stored document with `patch` applied, refused (writing nothing) when the result would not be a record the
 * store accepts: another canvas's meta, a wire whose ends are missing, a log that does not extend the stored one.
 * The patch's records were schema-checked when the body was parsed, so only what they touch is checked here.
 */
export function patchStoredCanvas(id: string, stored: CanvasDocument, patch: CanvasPatch): CanvasDocument {
  if (patch.canvas && patch.canvas.id !== id) throw invalid(`the change is for canvas "${patch.canvas.id}"`);
  if (patch.eventsBefore !== stored.events.length) {
    throw new WeftError(
      'event-log-rewrite',
      `The event log of canvas "${id}" is append-only: the change extends a log of ${patch.eventsBefore} events, the stored one holds ${stored.events.length}. Nothing was written.`,
      409,
    );
  }
  const next = applyCanvasPatch(stored, patch);
  const nodeIds = new Set(next.nodes.map((node) => node.id));
  if (nodeIds.size !== next.nodes.length) throw invalid('two nodes share an id');
  for (const wire of next.wires) {
    if (!nodeIds.has(wire.from) || !nodeIds.has(wire.to))
      throw invalid(`wire ${wire.id} joins a node that is not on the canvas`);
  }
  // Only the appended events are checked: the stored prefix is the stored log itself.
  const last = stored.events.at(-1);
  assertEventPrefix(id, last ? [last] : [], last ? [last, ...patch.appendEvents] : patch.appendEvents);
  return next;
}
