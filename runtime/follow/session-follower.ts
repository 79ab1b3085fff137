import { stat } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { AtlasFollow } from '../../protocol/index.ts';
import type { FollowStore } from './follow-store.ts';

export interface SessionFollowerOptions {
  store: FollowStore;
  /** Called once per burst of writes to a followed session (or its subagent runs). */
  onGrew: (follow: AtlasFollow) => void | Promise<void>;
  onError?: (error: unknown) => void;
  /** Quiet time after the last write before `onGrew` (default 400 ms). */
  debounceMs?: number;
}

const READY_TIMEOUT_MS = 5000;

const followKey = (runner: string, sessionId: string) => `${runner}\u0000${sessionId}`;

/**
 * Watches followed session files with chokidar: the directory holding each file (not a glob), read-only
 * (chokidar only lists and stats), plus a Claude Code session's `<id>/subagents/` folder for its subagent runs.
 * Writes are debounced so an agent streaming lines produces one notification per pause.
 */
export class SessionFollower {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly follows = new Map<string, AtlasFollow>();
  private closed = false;

  constructor(private readonly options: SessionFollowerOptions) {}

  /** Resumes every follow persisted by an earlier run. */
  async start(): Promise<void> {
    for (const follow of await this.options.store.list()) await this.watchOne(follow);
  }

  async follow(follow: AtlasFollow): Promise<AtlasFollow[]> {
    const list = await this.options.store.update({ follow });
    await this.watchOne(follow);
    return list;
  }

  async unfollow(runner: string, sessionId: string): Promise<AtlasFollow[]> {
    const list = await this.options.store.update({ unfollow: { runner, sessionId } });
    await this.stop(followKey(runner, sessionId));
    return list;
  }

  isFollowing(runner: string, sessionId: string): boolean {
    return this.follows.has(followKey(runner, sessionId));
  }

  list(): AtlasFollow[] {
    return [...this.follows.values()].map((follow) => ({ ...follow }));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.watchers.values()].map((watcher) => watcher.close()));
    this.watchers.clear();
  }

  private async watchOne(follow: AtlasFollow): Promise<void> {
    const key = followKey(follow.runner, follow.sessionId);
    if (this.closed) return;
    await this.stop(key);
    this.follows.set(key, follow);
    const directory = dirname(follow.sourcePath);
    // chokidar never reports `ready` for a folder that is not there: the follow is kept, with nothing to watch.
    if (!(await isDirectory(directory))) return;
    const companion = follow.sourcePath.replace(/\.jsonl$/, '');
    const relevant = (path: string) =>
      path === directory || path === follow.sourcePath || path === companion || path.startsWith(companion + sep);
    const watcher = watch(directory, {
      persistent: false,
      ignoreInitial: true,
      depth: 3,
      ignored: (path: string) => !relevant(path),
    });
    watcher.on('add', () => this.schedule(key));
    watcher.on('change', () => this.schedule(key));
    watcher.on('error', (error) => this.options.onError?.(error));
    this.watchers.set(key, watcher);
    const sizeBefore = await sizeOf(follow.sourcePath);
    // Bounded: a folder removed between the check and the watch must not hold up every other follow.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, READY_TIMEOUT_MS);
      timer.unref?.();
      watcher.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    // Lines written while the watcher was starting raise no event: report them once it is ready.
    if ((await sizeOf(follow.sourcePath)) !== sizeBefore) this.schedule(key);
  }

  private schedule(key: string): void {
    const previous = this.timers.get(key);
    if (previous) clearTimeout(previous);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        const follow = this.follows.get(key);
        if (!follow || this.closed) return;
        Promise.resolve(this.options.onGrew(follow)).catch((error) => this.options.onError?.(error));
      }, this.options.debounceMs ?? 400),
    );
  }

  private async stop(key: string): Promise<void> {
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.delete(key);
    this.follows.delete(key);
    const watcher = this.watchers.get(key);
    this.watchers.delete(key);
    await watcher?.close();
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}
