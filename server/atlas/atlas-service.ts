import { readPutAsides } from '../../runtime/fs/index.ts';
import { nodeHashPort } from '../../runtime/hash/index.ts';
import { isPutAside } from '../../src/core/index.ts';
import { homedir } from 'node:os';
import { delimiter } from 'node:path';
import type { LabelTurn, Session } from '../../protocol/index.ts';
import type {
  AtlasFollow,
  AtlasSessionSummary,
  AtlasSessionsResponse,
  AtlasSort,
  AtlasWhyResponse,
} from '../../protocol/index.ts';
import { Fence, readSessionFile, resolveSessionRoots, type SessionRoots } from '../../runtime/atlas/index.ts';
import { FollowStore, followsPath, SessionFollower } from '../../runtime/follow/index.ts';
import {
  postgresReader,
  WhyIndex,
  type IndexDatabase,
  type PostgresIndex,
  type UpdateSummary,
} from '../../runtime/index/index.ts';
import { sessionTurns } from '../../runtime/topics/index.ts';
import type { EventHub } from '../event-hub.ts';
import type { Logger } from '../logger.ts';
import { listIndexedSessions, sessionRowsFor, type ListRequest } from './atlas-listing.ts';
import { canonicalSession } from './canonical-session.ts';
import { WeftError } from '../../protocol/index.ts';

export interface AtlasServiceOptions {
  /** `WEFT_HOME`: the index (`index.db`) and `follows.json` live here. */
  weftHome: string;
  /** `WEFT_SESSION_ROOTS` comes from here (else the roots chosen in Settings, else the runners' default folders). */
  env: Record<string, string | undefined>;
  home?: string;
  hub: EventHub;
  logger: Logger;
  now?: () => number;
  followDebounceMs?: number;
}

const EMPTY_REFRESH = { files: 0, fullReads: 0, appendReads: 0, durationMs: 0 };

/**
 * The server's Session Atlas: the why index over the fenced roots (refreshed incrementally before each
 * listing), canonical sessions read through the fence, and the live follower. Nothing here writes under a root.
 */
export class AtlasService {
  private inForce: SessionRoots;
  private rootsFence: Fence;
  readonly follower: SessionFollower;
  private index: WhyIndex | null = null;
  private refreshing: Promise<UpdateSummary> | null = null;
  private readonly turnCounts = new Map<string, number>();
  readonly started: Promise<void>;

  constructor(private readonly options: AtlasServiceOptions) {
    this.inForce = this.readRoots();
    this.rootsFence = new Fence(this.inForce.roots);
    this.follower = new SessionFollower({
      store: new FollowStore(followsPath(options.weftHome)),
      debounceMs: options.followDebounceMs ?? 400,
      onGrew: (follow) => this.sessionGrew(follow),
      onError: (error) =>
        options.logger.warn('follow watcher error', {
          message: error instanceof Error ? error.message : String(error),
        }),
    });
    this.started = this.follower.start().catch((error: unknown) => {
      options.logger.warn('could not resume follows', {
        message: error instanceof Error ? error.message : String(error),
      });
    });
  }

  /** The session roots read now, and where they come from. */
  get roots(): string[] {
    return this.inForce.roots;
  }

  get rootsSource(): SessionRoots['source'] {
    return this.inForce.source;
  }

  get fence(): Fence {
    return this.rootsFence;
  }

  private readRoots(): SessionRoots {
    return resolveSessionRoots(this.options.env, this.options.home ?? homedir(), this.options.weftHome);
  }

  /** The roots read now when they differ from those in force (Settings changed, here or in another process). */
  private movedRoots(): SessionRoots | null {
    const next = this.readRoots();
    const same =
      next.source === this.inForce.source && next.roots.join(delimiter) === this.inForce.roots.join(delimiter);
    return same ? null : next;
  }

  private whyIndex(): WhyIndex {
    if (!this.index) {
      const env = {
        ...this.options.env,
        WEFT_HOME: this.options.weftHome,
        WEFT_SESSION_ROOTS: this.roots.join(delimiter),
      };
      this.index = WhyIndex.open({
        env,
        home: this.options.home ?? homedir(),
        ...(this.options.now ? { now: this.options.now } : {}),
      });
    }
    return this.index;
  }

  /** The cheap stat pass (appended files read from where they stopped); concurrent callers share one pass. */
  refresh(): Promise<UpdateSummary> {
    const moved = this.movedRoots();
    // New roots wait for a pass in flight to end, then the index reopens over them (no restart needed); the files
    // of a root removed leave the index (`updateIndex`).
    if (this.refreshing && moved) return this.refreshing.catch(() => undefined).then(() => this.refresh());
    if (!this.refreshing) {
      if (moved) {
        this.inForce = moved;
        this.rootsFence = new Fence(moved.roots);
        this.index?.close();
        this.index = null;
      }
      this.refreshing = this.whyIndex()
        .refresh()
        .finally(() => {
          this.refreshing = null;
        });
    }
    return this.refreshing;
  }

  /** Agent-session turns for a labelling run (C15), after the cheap refresh: keys and openings only. */
  async labelTurns(): Promise<LabelTurn[]> {
    await this.refresh();
    return sessionTurns(this.whyIndex().database, undefined, readPutAsides(this.options.weftHome));
  }

  /** The why index's database after the cheap refresh: dossiers (C15) and recall (C16) read session turns from it. */
  async turnDatabase(): Promise<IndexDatabase> {
    await this.refresh();
    return this.whyIndex().database;
  }

  async listSessions(request: ListRequest): Promise<AtlasSessionsResponse> {
    const summary = await this.refresh();
    const following = new Set(this.follower.list().map((follow) => `${follow.runner}\u0000${follow.sessionId}`));
    const listed = listIndexedSessions(this.whyIndex(), request, (runner, sessionId) =>
      following.has(`${runner}\u0000${sessionId}`),
    );
    return {
      ...listed,
      roots: this.roots,
      refresh: summary
        ? {
            files: summary.files,
            fullReads: summary.fullReads,
            appendReads: summary.appendReads,
            durationMs: Math.round(summary.durationMs),
          }
        : EMPTY_REFRESH,
    };
  }

  /**
   * The session and every subagent run under it, read through the fence from the files the index knows. When
   * the session's own file is gone (moved, renamed), the roots are re-scanned once and the read tried again,
   * so a moved session is found without waiting for the next listing.
   */
  async readSession(sessionId: string, runner?: string): Promise<Session[]> {
    return (await this.readSessionView(sessionId, runner)).sessions;
  }

  /**
   * As `readSession`, and whether the session's own file is gone: then (as for any file gone that the
   * archive kept) the sessions come from Weft's compressed copy, marked "source deleted".
   */
  async readSessionView(sessionId: string, runner?: string): Promise<{ sessions: Session[]; sourceDeleted: boolean }> {
    let rows = sessionRowsFor(this.whyIndex(), sessionId, runner);
    let rescanned = false;
    if (rows.length === 0) {
      await this.refresh();
      rescanned = true;
      rows = sessionRowsFor(this.whyIndex(), sessionId, runner);
    }
    for (;;) {
      if (rows.length === 0)
        throw new WeftError('session-not-found', `No session ${sessionId} in the session roots.`, 404);
      const read = await this.readRows(sessionId, rows);
      if (read !== 'gone') return { ...read, sessions: this.markPutAside(read.sessions) };
      if (rescanned)
        throw new WeftError('session-not-found', `The session file of ${sessionId} is no longer there.`, 404);
      await this.refresh();
      rescanned = true;
      rows = sessionRowsFor(this.whyIndex(), sessionId, runner);
    }
  }

  /** Issue 29.2: each turn whose words the person put aside is marked, so the mirror leaves it off the canvas. */
  private markPutAside(sessions: Session[]): Session[] {
    const putAsides = readPutAsides(this.options.weftHome);
    if (putAsides.size === 0) return sessions;
    return sessions.map((session) => ({
      ...session,
      turns: session.turns.map((turn) =>
        isPutAside(putAsides, 'session-turn', turn.userText, nodeHashPort) ? { ...turn, putAside: true } : turn,
      ),
    }));
  }

  /** The sessions of `rows`' files, or 'gone' when the session's own file is no longer there and no copy was kept. */
  private async readRows(
    sessionId: string,
    rows: ReturnType<typeof sessionRowsFor>,
  ): Promise<{ sessions: Session[]; sourceDeleted: boolean } | 'gone'> {
    const wanted = new Set(rows.map((row) => row.sessionId));
    const sessions: Session[] = [];
    const seen = new Set<string>();
    const ownPath = rows[0]!.path;
    let sourceDeleted = false;
    for (const path of [...new Set(rows.map((row) => row.path))]) {
      const read = await this.readKnownFile(path, path === ownPath, sessionId);
      if (read === 'gone') return 'gone';
      if (read === null) continue;
      if (read.fromArchive && path === ownPath) sourceDeleted = true;
      for (const session of read.sessions) {
        if (!wanted.has(session.sessionId) || seen.has(session.sessionId)) continue;
        seen.add(session.sessionId);
        sessions.push(canonicalSession(session));
      }
    }
    // The top-level session first, subagent runs after it.
    sessions.sort((left, right) => Number(left.isSubagent) - Number(right.isSubagent));
    return { sessions, sourceDeleted };
  }

  /**
   * One file the index knows, through the fence; gone (or no longer a plain file), its archived copy. A
   * subagent run's file gone with no copy leaves the session readable without that run (null); the session's own
   * file gone with no copy is 'gone' (the caller re-scans once: it may have moved).
   */
  private async readKnownFile(
    path: string,
    own: boolean,
    sessionId: string,
  ): Promise<{ sessions: Session[]; fromArchive: boolean } | null | 'gone'> {
    try {
      return { sessions: (await readSessionFile(path, { fence: this.fence })).sessions, fromArchive: false };
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      // Gone since it was indexed is not a fence breach.
      if (code === 'FENCE_NOT_FOUND' || code === 'FENCE_NOT_FILE') {
        const archive = this.whyIndex().archive;
        const entry = archive.entry(path);
        if (entry) return { sessions: (await archive.readSession(entry)).sessions, fromArchive: true };
        return own ? 'gone' : null;
      }
      if (code.startsWith('FENCE_'))
        throw new WeftError('outside-roots', `The session file is outside the session roots (${code}).`, 403);
      throw new WeftError(
        'session-unreadable',
        `The session file of ${sessionId} could not be read: ${(error as Error).message}`,
        500,
      );
    }
  }

  /**
   * The turns that touched `target`. The server has no working directory of its own, so a relative path is
   * resolved against the open canvas's working directory and every session's (like `weft why` run there).
   * With `team`, the team index answers (what this person's role may read), labelled as such.
   */
  async why(
    target: string,
    includeRead: boolean,
    workingDirectory: string | null = null,
    team: PostgresIndex | null = null,
  ): Promise<AtlasWhyResponse> {
    await this.refresh();
    const index = this.whyIndex();
    let result;
    try {
      const alsoRelativeTo = [...(workingDirectory ? [workingDirectory] : []), ...index.workingDirectories()];
      const options = { cwd: this.options.home ?? homedir(), all: true, includeRead, limit: 100, alsoRelativeTo };
      result = team ? await postgresReader(index, team).why(target, options) : index.why(target, options);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'bad-target' || code === 'bad-query') throw new WeftError(code, (error as Error).message, 400);
      throw error;
    }
    const parents = index.database.prepare(
      'SELECT parent_session_id AS parent FROM sessions WHERE session_id = ? AND parent_session_id IS NOT NULL LIMIT 1',
    );
    const mainOf = (sessionId: string): string => {
      let current = sessionId;
      for (let depth = 0; depth < 8; depth += 1) {
        const row = parents.get(current) as { parent: string } | undefined;
        if (!row) break;
        current = row.parent;
      }
      return current;
    };
    return {
      target,
      hits: result.hits.map((hit) => ({ ...hit, mainSessionId: mainOf(hit.sessionId) })),
      hiddenReads: result.hiddenReads,
      putAside: result.putAside,
      ...(team ? { answeredBy: 'team-index' as const, teamLocation: team.location } : {}),
    };
  }

  async follows(): Promise<AtlasFollow[]> {
    await this.started;
    return this.follower.list();
  }

  async setFollowing(runner: AtlasFollow['runner'], sessionId: string, following: boolean): Promise<AtlasFollow[]> {
    await this.started;
    if (!following) return this.follower.unfollow(runner, sessionId);
    const rows = sessionRowsFor(this.whyIndex(), sessionId, runner).filter((row) => row.sessionId === sessionId);
    if (rows.length === 0) throw new WeftError('session-not-found', `No session ${sessionId} to follow.`, 404);
    await this.fence.resolve(rows[0]!.path);
    const sessions = await this.readSession(sessionId, runner);
    this.turnCounts.set(`${runner}\u0000${sessionId}`, sessions[0]?.turns.length ?? 0);
    return this.follower.follow({
      runner,
      sessionId,
      sourcePath: rows[0]!.path,
      since: (this.options.now ?? Date.now)(),
    });
  }

  private async sessionGrew(follow: AtlasFollow): Promise<void> {
    await this.refresh();
    const sessions = await this.readSession(follow.sessionId, follow.runner);
    const main = sessions[0];
    const turns = main?.turns.length ?? 0;
    const key = `${follow.runner}\u0000${follow.sessionId}`;
    const before = this.turnCounts.get(key);
    this.turnCounts.set(key, turns);
    this.options.hub.publish({ type: 'session-grew', runner: follow.runner, sessionId: follow.sessionId, turns });
    for (const turn of main?.turns.slice(before ?? turns) ?? []) {
      this.options.hub.publish({
        type: 'mirror-appended',
        runner: follow.runner,
        sessionId: follow.sessionId,
        turnKey: turn.key,
      });
    }
  }

  async close(): Promise<void> {
    await this.started;
    await this.follower.close();
    await this.refreshing?.catch(() => undefined);
    this.index?.close();
    this.index = null;
  }
}

export type { AtlasSort, AtlasSessionSummary };
