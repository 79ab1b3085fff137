import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { AgentRuntimeId } from './agent-events.ts';

const OVERRIDE: Record<AgentRuntimeId, string> = { pi: 'WEFT_PI_BIN', codex: 'WEFT_CODEX_BIN' };
const COMMAND: Record<AgentRuntimeId, string> = { pi: 'pi', codex: 'codex' };

/** How to get a runtime that is missing; shown where the picker would list its models. */
export const INSTALL_HINT: Record<AgentRuntimeId, string> = {
  pi: 'Install Pi with `npm install -g @mariozechner/pi-coding-agent` (tested with 0.73.1) or set WEFT_PI_BIN.',
  codex: 'Install Codex with `npm install -g @openai/codex` (tested with 0.171.0) or set WEFT_CODEX_BIN.',
};

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The runtime's executable: `WEFT_PI_BIN` / `WEFT_CODEX_BIN` when set, else the first on PATH; null when absent. */
export function findAgentBin(runtime: AgentRuntimeId, env: NodeJS.ProcessEnv): string | null {
  const override = env[OVERRIDE[runtime]]?.trim();
  if (override) return isAbsolute(override) && executable(override) ? override : null;
  for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(folder, COMMAND[runtime]);
    if (executable(candidate)) return candidate;
  }
  return null;
}
