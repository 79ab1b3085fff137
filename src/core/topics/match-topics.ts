import type { Topic } from '../../../protocol/index.ts';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/**
 * The judge-less rule: a turn is about a topic when the topic's name occurs in it as whole words, regardless of
 * case ("Dexie" matches "dexie's schema" but not "Dexie2" or "undexied"); a space in a name matches any whitespace.
 * Letters, digits and `_` on either side make it not a whole word. Returns ids in table order.
 */
export function matchTopicsByName(text: string, topics: readonly Topic[]): string[] {
  const folded = text.normalize('NFKC');
  return topics
    .filter((topic) => {
      const pattern = escapeRegExp(topic.name).replace(/ /gu, '\\s+');
      return new RegExp(`(?<![\\p{L}\\p{N}_])${pattern}(?![\\p{L}\\p{N}_])`, 'iu').test(folded);
    })
    .map((topic) => topic.id);
}
