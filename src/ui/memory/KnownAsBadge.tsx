import type { KnownAs } from '../../../protocol/index.ts';
import { KNOWN_AS_WORDS } from '../../core/memory/index.ts';

/**
 * How an item in memory is known (#29), in words beside it, with why that matters on hover; the code itself stays
 * in `data-known-as` (for tests and styling), never as the text a person reads.
 */
export function KnownAsBadge({ knownAs, testId = 'memory-known-as' }: { knownAs: KnownAs; testId?: string }) {
  const { words, why } = KNOWN_AS_WORDS[knownAs];
  return (
    <span
      className={`memory-badge known-as known-as-${knownAs}`}
      data-testid={testId}
      data-known-as={knownAs}
      title={why}
    >
      {words}
    </span>
  );
}
