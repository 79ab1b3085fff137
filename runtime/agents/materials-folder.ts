import { randomUUID } from 'node:crypto';
import { lstat, mkdir, readFile, readdir, realpath, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute } from 'node:path';
import { AGENT_MATERIAL_FILE_NAME, agentMaterialsFolder } from '../../src/core/index.ts';
import { AgentRuntimeError } from './agent-runtime-error.ts';

export interface MaterialFileInput {
  fileName: string;
  text: string;
}

/** Weft's mark on a folder it made for materials: `*` keeps the folder (the mark too) out of Git. */
const MARK = '# Written by Weft: materials copied for agent turns.\n*\n';

async function isWeftMark(path: string): Promise<boolean> {
  return (await readFile(path, 'utf8').catch(() => '')).startsWith('# Written by Weft');
}

/** Makes the folder if it is missing and marks it as Weft's; a folder that was there is left as it is. */
async function makeMarked(folder: string): Promise<void> {
  const made = await mkdir(folder).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (made) await writeFile(join(folder, '.gitignore'), MARK, { flag: 'wx' });
}

/**
 * Copies a turn's materials into `<cwd>/.weft/materials/<node>/` (the folder the block names), replacing what an
 * earlier turn of the node left there. Inside the working directory the runtime reads them without a card. Each
 * folder Weft makes on the way carries a `.gitignore` of `*`, the node's folder always, so no copy shows in the
 * person's repository, even inside a `.weft` of their own (whose other files are never touched). The files are
 * written into a fresh folder that is renamed into place, so the runtime never sees half a set. Returns the
 * folder, or null when there is nothing.
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
  await makeMarked(weft);
  await makeMarked(dirname(folder));
  const inside = relative(await realpath(cwd), await realpath(dirname(folder)));
  if (inside.startsWith('..') || isAbsolute(inside))
    throw new AgentRuntimeError('AGENT_MATERIALS_INVALID', `${weft} leads outside the working directory.`);
  const staging = join(dirname(folder), `.staging-${randomUUID()}`);
  await mkdir(staging);
  try {
    // The mark first: the set is out of Git from its first file on.
    await writeFile(join(staging, '.gitignore'), MARK);
    for (const file of files) await writeFile(join(staging, file.fileName), file.text, { mode: 0o600 });
    await rm(folder, { recursive: true, force: true });
    await rename(staging, folder);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return folder;
}

/** Removes a folder that holds nothing but Weft's mark (or nothing, when `orphan`: its parent is Weft's). */
async function removeIfOnlyMarked(folder: string, orphan: boolean): Promise<boolean> {
  const entries = await readdir(folder).catch(() => null);
  if (entries === null || entries.some((entry) => entry !== '.gitignore')) return false;
  const marked = entries.length === 1 && (await isWeftMark(join(folder, '.gitignore')));
  if (!marked && !(orphan && entries.length === 0)) return false;
  if (marked) await rm(join(folder, '.gitignore'), { force: true });
  // Another turn may have put its set here meanwhile: then the folder stays (its set is marked itself).
  return rmdir(folder).then(
    () => true,
    () => false,
  );
}

/**
 * Removes a turn's copies once the runtime can no longer read them, so materials do not stay in the person's
 * project: the node's folder (the one `writeMaterialsFolder` returned; never followed through a link: `rm` drops a
 * link itself, and the write refused links on the way), then `.weft/materials` and `.weft` when Weft made them and
 * nothing else is left in them. A `.weft` of the person's keeps every file of theirs.
 */
export async function removeMaterialsFolder(folder: string | null): Promise<void> {
  if (!folder) return;
  await rm(folder, { recursive: true, force: true });
  const materials = dirname(folder);
  const weft = dirname(materials);
  const weftIsWeft = await isWeftMark(join(weft, '.gitignore'));
  if (await removeIfOnlyMarked(materials, weftIsWeft)) await removeIfOnlyMarked(weft, false);
}
