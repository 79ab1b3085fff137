import type { MemoryActivity } from '../../../protocol/index.ts';
import { admissionWords, mergeFallbackWords } from './verdict-codes.ts';

/**
 * How an activity entry is marked: `kept` written or proposed, `quiet` nothing to act on (a repeat, an undo),
 * `refused` the rules said no, `failed` the judge did not answer. A duplicate is `quiet`: it is not an error.
 */
export type ActivityTone = 'kept' | 'quiet' | 'refused' | 'failed';

/** One sentence for people saying what the judge or the rules decided; the entry's code stays for a tooltip. */
export function describeActivity(entry: Pick<MemoryActivity, 'kind' | 'reason'>): string {
  const { kind, reason } = entry;
  switch (kind) {
    case 'judge-failed':
      return reason === 'merge-no-answer'
        ? 'The judge did not answer the merge; the rules merged instead.'
        : 'The judge did not answer; the rules decided instead.';
    case 'undone':
      return 'You undid this admission.';
    case 'proposed':
      return reason === 'already-pending'
        ? 'Proposed again: it already waits in the Inbox.'
        : 'Proposed: it waits in the Inbox for you.';
    case 'admitted':
      if (reason === 'project-dossier') return 'Admitted for a project: kept for a topic’s dossier.';
      if (reason === 'no-op') return 'Admitted: a line already says it, so nothing was written.';
      // The merge model's operations were refused by code; the fact was appended as its own line.
      if (reason !== null)
        return `Admitted as its own line: the model’s merge was not used, as ${mergeFallbackWords(reason)}.`;
      return 'Admitted.';
    case 'refused':
      if (reason === 'duplicate') return 'Not added again: a line already says it.';
      return reason === null ? 'Refused.' : `Refused: ${admissionWords(reason)}.`;
  }
}

export function activityTone(entry: Pick<MemoryActivity, 'kind' | 'reason'>): ActivityTone {
  if (entry.kind === 'judge-failed') return 'failed';
  if (entry.kind === 'admitted' || (entry.kind === 'proposed' && entry.reason === null)) return 'kept';
  if (entry.kind === 'refused' && entry.reason !== 'duplicate') return 'refused';
  return 'quiet';
}
