import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsxLoader = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs'),
).href;

/**
 * Runs one of this folder's child scripts in a fresh Node process (so its memory and caches are its own) and returns
 * the figures it printed as JSON on its last line.
 */
export function runChild(script: string, args: string[], env: NodeJS.ProcessEnv): Record<string, number> {
  const result = spawnSync(process.execPath, ['--import', tsxLoader, join(here, script), ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`${script} failed: ${result.stderr}`);
  if (result.stderr.trim()) console.error(result.stderr.trim());
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
}
