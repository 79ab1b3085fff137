import type { MemoryDocumentName, MemoryProfile, ProfileLine } from '../../../protocol/index.ts';
import { MEMORY_DOCUMENTS } from '../../../protocol/index.ts';

/** What Weft believed about the person at `time`: each document's lines written by then and not yet ended. */
export function profileAt(profile: MemoryProfile, time: number): Record<MemoryDocumentName, ProfileLine[]> {
  const heldAt = (line: ProfileLine) => line.createdAt <= time && (line.ended === null || line.ended.at > time);
  return {
    preferences: profile.documents.preferences.filter(heldAt),
    identity: profile.documents.identity.filter(heldAt),
  };
}

/**
 * A line's whole story: every line it descends from (through `supersedes`) and every line that replaced it or
 * its successors, oldest first. Each entry's `ended` says when and why it stopped being current, its
 * `evidence` and `origin` why it was there. Empty for an unknown id.
 */
export function lineHistory(profile: MemoryProfile, lineId: string): ProfileLine[] {
  const all = MEMORY_DOCUMENTS.flatMap((document) => profile.documents[document]);
  const byId = new Map(all.map((line) => [line.id, line]));
  if (!byId.has(lineId)) return [];
  const successors = new Map<string, string[]>();
  for (const line of all)
    for (const previous of line.supersedes) successors.set(previous, [...(successors.get(previous) ?? []), line.id]);
  const seen = new Set<string>();
  const visit = (id: string, next: (line: ProfileLine) => readonly string[]) => {
    const pending = [id];
    while (pending.length > 0) {
      const line = byId.get(pending.pop()!);
      if (!line) continue;
      seen.add(line.id);
      for (const other of next(line)) if (!seen.has(other)) pending.push(other);
    }
  };
  visit(lineId, (line) => line.supersedes);
  visit(lineId, (line) => successors.get(line.id) ?? []);
  const order = new Map(all.map((line, index) => [line.id, index]));
  return [...seen]
    .map((id) => byId.get(id)!)
    .sort((left, right) => left.createdAt - right.createdAt || order.get(left.id)! - order.get(right.id)!);
}
