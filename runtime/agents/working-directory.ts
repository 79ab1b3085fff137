import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import { AgentRuntimeError } from './agent-runtime-error.ts';

const isInside = (target: string, root: string) =>
  target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);

async function realOrSame(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

/** Whether one of the two folders holds the other (or they are the same), lexically or where their links lead. */
async function overlaps(folder: { lexical: string; real: string }, other: string): Promise<boolean> {
  const lexical = resolve(other);
  const real = await realOrSame(lexical);
  return (
    isInside(folder.real, real) ||
    isInside(folder.lexical, lexical) ||
    isInside(real, folder.real) ||
    isInside(lexical, folder.lexical)
  );
}

/**
 * The folder an agent turn may run in, or a coded refusal: `AGENT_CWD_INVALID` when it is not absolute, does not
 * exist or is not a directory; `AGENT_CWD_SESSION_ROOT` when it (or where its symlinks lead) is a session root, is
 * inside one or holds one; `AGENT_CWD_WEFT_HOME` when it is Weft's home, inside it or holds it. The agent writes
 * anywhere in its working directory, and Weft never writes under a session root nor lets an agent edit its data.
 */
export async function checkWorkingDirectory(
  folder: string,
  sessionRoots: readonly string[],
  weftHome?: string,
): Promise<string> {
  if (!isAbsolute(folder))
    throw new AgentRuntimeError('AGENT_CWD_INVALID', `The working directory must be an absolute path: ${folder}`);
  const lexical = resolve(folder);
  const found = await stat(lexical).catch(() => null);
  if (!found) throw new AgentRuntimeError('AGENT_CWD_INVALID', `The working directory does not exist: ${folder}`);
  if (!found.isDirectory())
    throw new AgentRuntimeError('AGENT_CWD_INVALID', `The working directory is not a folder: ${folder}`);
  const chosen = { lexical, real: await realOrSame(lexical) };
  for (const root of sessionRoots) {
    if (await overlaps(chosen, root))
      throw new AgentRuntimeError(
        'AGENT_CWD_SESSION_ROOT',
        `The working directory ${folder} overlaps the session root ${root} (it is, holds or is inside it), which Weft never writes to.`,
      );
  }
  if (weftHome !== undefined && (await overlaps(chosen, weftHome)))
    throw new AgentRuntimeError(
      'AGENT_CWD_WEFT_HOME',
      `The working directory ${folder} overlaps Weft's home ${weftHome} (it is, holds or is inside it); an agent may not edit Weft's data.`,
    );
  return lexical;
}
