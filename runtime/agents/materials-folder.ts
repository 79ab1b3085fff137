import { randomUUID } from 'node:crypto';
import { lstat, mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute } from 'node:path';
import { AGENT_MATERIAL_FILE_NAME, agentMaterialsFolder } from '../../src/core/index.ts';
import { AgentRuntimeError } from './agent-runtime-error.ts';

export interface MaterialFileInput {
  fileName: string;
  text: string;
}

/**
 * Copies a turn's materials into `<cwd>/.weft/materials/<node>/` (the folder the block names), replacing what an
 * earlier turn of the node left there. Inside the working directory the runtime reads them without a card;
 * `.weft/.gitignore` keeps them out of the person's repository. The files are written into a fresh folder that is
 * renamed into place, so the runtime never sees half a set. Returns the folder, or null when there is nothing.
 */
export async function writeMaterialsFolder(
  cwd: string,
  nodeId: string,
  files: readonly MaterialFileInput[],
): Promise<string | null> {
  if (files.length === 0) return null;
  const names = new Set<string>();
  for (const file of files) {
    if (!AGENT_MATERIAL_FILE_NAME.test(file.fileName) || names.has(file.fileName))
      throw new AgentRuntimeError('AGENT_MATERIALS_INVALID', `Not a material file name Weft writes: ${file.fileName}`);
    names.add(file.fileName);
  }
  const folder = agentMaterialsFolder(cwd, nodeId);
  const weft = join(cwd, '.weft');
  // `.weft` could be a link elsewhere (into a session root, say): nothing is made through a link.
  for (const part of [weft, dirname(folder), folder]) {
    if ((await lstat(part).catch(() => null))?.isSymbolicLink())
      throw new AgentRuntimeError(
        'AGENT_MATERIALS_INVALID',
        `${part} is a link; Weft copies materials only inside the working directory.`,
      );
  }
  await mkdir(dirname(folder), { recursive: true });
  const inside = relative(await realpath(cwd), await realpath(dirname(folder)));
  if (inside.startsWith('..') || isAbsolute(inside))
    throw new AgentRuntimeError('AGENT_MATERIALS_INVALID', `${weft} leads outside the working directory.`);
  await writeFile(join(weft, '.gitignore'), '# Written by Weft: materials copied for agent turns.\n*\n', {
    flag: 'wx',
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const staging = join(dirname(folder), `.staging-${randomUUID()}`);
  await mkdir(staging);
  try {
    for (const file of files) await writeFile(join(staging, file.fileName), file.text, { mode: 0o600 });
    await rm(folder, { recursive: true, force: true });
    await rename(staging, folder);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return folder;
}

/**
 * Removes a turn's copies once the runtime can no longer read them, so materials do not stay in the person's
 * project; the folder is the one `writeMaterialsFolder` returned (never followed through a link: `rm` drops a link
 * itself, and the write refused links on the way).
 */
export async function removeMaterialsFolder(folder: string | null): Promise<void> {
  if (folder) await rm(folder, { recursive: true, force: true });
}
