import { randomUUID } from 'node:crypto';

/**
 * Ids for imported canvases, nodes, versions and events, shaped like the app's own (`createIdGenerator` in the
 * store): a base-36 time prefix, a two-digit counter and 12 random hex digits, so ids made in one millisecond keep
 * their creation order and never collide with ids another window makes.
 */
export function importIdGenerator(now: () => number = Date.now): () => string {
  let counter = 0;
  return () => {
    counter = (counter + 1) % 1296;
    return `${now().toString(36)}${counter.toString(36).padStart(2, '0')}${randomUUID().slice(-12)}`;
  };
}
