import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDirectory } from '../fs/index.ts';

/**
 * The CODEX_HOME Weft runs Codex with: created 0700; on first use its config.toml starts as a copy of the person's
 * `~/.codex/config.toml` (their providers and model), which is only read. Codex then writes its trust marks and
 * sessions here, never in `~/.codex`. Sign-in state is not copied: `CODEX_HOME=<this folder> codex login` signs in.
 */
export function prepareCodexHome(codexHome: string, env: NodeJS.ProcessEnv): string {
  ensurePrivateDirectory(codexHome);
  const config = join(codexHome, 'config.toml');
  const personal = env.HOME ? join(env.HOME, '.codex', 'config.toml') : null;
  if (!existsSync(config) && personal && existsSync(personal)) copyFileSync(personal, config);
  return codexHome;
}
