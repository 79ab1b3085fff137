import { describeError } from '../api/index.ts';
import { atlasApi } from './atlas-api.ts';
import { atlasStore } from './atlas-state.ts';

let generation = 0;

/** Reloads the session cards for the current filters; a newer request wins over a slower older one. */
export async function loadSessions(): Promise<void> {
  const current = ++generation;
  const { runner, query, sort, subagents } = atlasStore.getState();
  atlasStore.setState({ loading: true, error: null });
  try {
    const listing = await atlasApi.sessions({ runner, q: query, sort, subagents });
    if (current === generation) atlasStore.setState({ listing, loading: false });
  } catch (error) {
    const { code, message } = describeError(error);
    if (current === generation) atlasStore.setState({ loading: false, error: `${code}: ${message}` });
  }
}

let whyGeneration = 0;

/**
 * Asks the why index which turns touched a path, URL or paper (read-only turns as the toggle says). A relative
 * path is resolved on the server against `workingDirectory` (the open canvas's; the last one given when left
 * out) and the sessions' working directories.
 * Only the latest question's answer or error lands: an older, slower one is dropped.
 */
export async function askWhy(
  target: string,
  workingDirectory: string | null = atlasStore.getState().whyWorkingDirectory,
): Promise<void> {
  const current = ++whyGeneration;
  const { whyIncludeRead: includeRead, whyFromTeam: fromTeam } = atlasStore.getState();
  atlasStore.setState({
    whyTarget: target,
    whyWorkingDirectory: workingDirectory,
    whyLoading: true,
    whyError: null,
  });
  try {
    const whyResult = await atlasApi.why(target, includeRead, workingDirectory, fromTeam);
    if (current === whyGeneration) atlasStore.setState({ whyResult, whyLoading: false });
  } catch (error) {
    const { code, message } = describeError(error);
    if (current === whyGeneration)
      atlasStore.setState({ whyLoading: false, whyResult: null, whyError: `${code}: ${message}` });
  }
}

/** The "include read-only turns" toggle: asks the shown target again when there is one. */
export async function setWhyIncludeRead(includeRead: boolean): Promise<void> {
  atlasStore.setState({ whyIncludeRead: includeRead });
  const target = atlasStore.getState().whyTarget;
  if (target) await askWhy(target);
}

/** The "team index" toggle (issue 32.4): asks the shown target again, of the other index. */
export async function setWhyFromTeam(fromTeam: boolean): Promise<void> {
  atlasStore.setState({ whyFromTeam: fromTeam });
  const target = atlasStore.getState().whyTarget;
  if (target) await askWhy(target);
}
