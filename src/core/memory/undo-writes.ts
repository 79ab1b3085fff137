import type { MemoryProfile, Refusal } from '../../../protocol/index.ts';
import { RefusalSchema } from '../../../protocol/index.ts';
import type { Result } from '../result.ts';
import { failure, success } from '../result.ts';
import { refusedByPersonEvent } from './memory-events.ts';
import type { PersonEdit, PersonEditCode } from './person-edits.ts';
import { undoWrite } from './person-edits.ts';
import type { MemoryContext } from './profile.ts';
import { findLine } from './profile.ts';

/**
 * Undo of one exchange's admissions (one toast, several lines): the documents go back to `before` byte for byte
 * and every line the exchange wrote becomes an `undone-admission` refusal. `changed-since` when the profile moved
 * on after the write, like `undoWrite`.
 */
export function undoWrites(
  before: MemoryProfile,
  after: MemoryProfile,
  current: MemoryProfile,
  lineIds: readonly string[],
  context: MemoryContext,
): Result<PersonEdit & { refusals: Refusal[] }, PersonEditCode> {
  const [first, ...rest] = lineIds;
  const undone = undoWrite(before, after, current, first ?? null, context);
  if (!undone.ok) return undone;
  const refusals: Refusal[] = [undone.value.refusal];
  const events = [...undone.value.events];
  for (const lineId of rest) {
    const written = findLine(after, lineId);
    if (!written) return failure('nothing-to-undo');
    const refusal: Refusal = {
      id: context.newId(),
      kind: 'undone-admission',
      text: written.line.text,
      lineId,
      at: context.now,
    };
    if (!RefusalSchema.safeParse(refusal).success) return failure('invalid');
    refusals.push(refusal);
    events.push(refusedByPersonEvent(refusal));
  }
  const profile = { ...undone.value.profile, refusals: [...undone.value.profile.refusals, ...refusals.slice(1)] };
  return success({ profile, refusals, events });
}
