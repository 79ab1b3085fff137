import type { PendingFact } from '../../../protocol/index.ts';

/**
 * What a dossier run consumes (C15): only the pending facts it read. A fact filed while the model was writing
 * is not among them and waits for the next run; a fact discarded or filed elsewhere meanwhile is not consumed.
 */
export function factsConsumed(
  read: readonly string[],
  pendingNow: readonly PendingFact[],
): { consumed: string[]; waiting: PendingFact[] } {
  const wasRead = new Set(read);
  return {
    consumed: pendingNow.filter((fact) => wasRead.has(fact.id)).map((fact) => fact.id),
    waiting: pendingNow.filter((fact) => !wasRead.has(fact.id)),
  };
}

/**
 * The turns and facts a confirmed run may read: the ones the person was shown in the plan that are still there,
 * so nothing the plan did not list ever leaves the machine.
 */
export function confirmedSelection<Turn extends { turnKey: string }>(
  planned: { turnKeys: readonly string[]; factIds: readonly string[] },
  available: { turns: readonly Turn[]; facts: readonly PendingFact[] },
): { turns: Turn[]; facts: PendingFact[] } {
  const keys = new Set(planned.turnKeys);
  const ids = new Set(planned.factIds);
  return {
    turns: available.turns.filter((turn) => keys.has(turn.turnKey)),
    facts: available.facts.filter((fact) => ids.has(fact.id)),
  };
}
