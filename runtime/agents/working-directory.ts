import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import { AgentRuntimeError } from './agent-runtime-error.ts';

const isInside = (target: string, root: string) =>
  target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);

async function realOrSame(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/**
 * The folder an agent turn may run in, or a coded refusal: `AGENT_CWD_INVALID` when it is not absolute, does not
 * exist or is not a directory; `AGENT_CWD_SESSION_ROOT` when it (or where its symlinks lead) is a session root or
 * inside one, since the agent writes in its working directory and Weft never writes under a session root.
 */
export async function checkWorkingDirectory(folder: string, sessionRoots: readonly string[]): Promise<string> {
  if (!isAbsolute(folder))
    throw new AgentRuntimeError('AGENT_CWD_INVALID', `The working directory must be an absolute path: ${folder}`);
  const lexical = resolve(folder);
  const found = await stat(lexical).catch(() => null);
  if (!found) throw new AgentRuntimeError('AGENT_CWD_INVALID', `The working directory does not exist: ${folder}`);
  if (!found.isDirectory())
    throw new AgentRuntimeError('AGENT_CWD_INVALID', `The working directory is not a folder: ${folder}`);
  const real = await realOrSame(lexical);
  for (const root of sessionRoots) {
    const rootLexical = resolve(root);
    const rootReal = await realOrSame(rootLexical);
    if (isInside(real, rootReal) || isInside(lexical, rootLexical))
      throw new AgentRuntimeError(
        'AGENT_CWD_SESSION_ROOT',
        `The working directory ${folder} is inside the session root ${root}, which Weft never writes to.`,
      );
  }
  return lexical;
}
