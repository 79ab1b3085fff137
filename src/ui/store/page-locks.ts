/**
 * Which pages are open now, so a page opening a canvas takes over only the pending steps of pages that are gone
 * (`claimPending`): each page holds a lock named after itself for as long as it lives. Absent (no Web Locks, as
 * in the store tests' Node), every other page counts as gone.
 */
export interface PageLocks {
  /** Holds `owner`'s lock until the page goes. */
  hold(owner: string): void;
  /** The owners whose pages hold their lock now. */
  live(): Promise<Set<string>>;
}

const PREFIX = 'weft-page:';

interface LockManagerLike {
  request(name: string, callback: () => Promise<unknown>): Promise<unknown>;
  query(): Promise<{ held?: { name?: string }[] }>;
}

/** The browser's Web Locks (`navigator.locks`), shared by every tab of the origin; null where there are none. */
export function browserPageLocks(): PageLocks | null {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  if (!locks) return null;
  return {
    hold(owner) {
      void locks.request(`${PREFIX}${owner}`, () => new Promise<never>(() => undefined));
    },
    async live() {
      const { held = [] } = await locks.query();
      const owners = held.map((lock) => lock.name ?? '').filter((name) => name.startsWith(PREFIX));
      return new Set(owners.map((name) => name.slice(PREFIX.length)));
    },
  };
}
