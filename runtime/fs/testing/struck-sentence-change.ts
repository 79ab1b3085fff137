// Test support: the put-aside log's change for one dossier sentence, as the put-aside tests write it.
import { contentKey } from '../../../src/core/index.ts';
import type { PutAsideChange, PutAsideOrigin } from '../put-aside-store.ts';

/** A dossier sentence struck (its words kept as the excerpt) or restored, at `at`, from `origin`. */
export function struckSentenceChange(
  text: string,
  {
    op = 'put-aside',
    at = 1,
    origin = { topicId: 'topic', sentenceId: 'sentence' },
  }: {
    op?: PutAsideChange['op'];
    at?: number;
    origin?: PutAsideOrigin;
  } = {},
): PutAsideChange {
  return {
    op,
    key: contentKey('dossier-sentence', text),
    kind: 'dossier-sentence',
    reason: op === 'put-aside' ? 'struck' : 'restored',
    at,
    origin,
    ...(op === 'put-aside' ? { excerpt: text } : {}),
  };
}
