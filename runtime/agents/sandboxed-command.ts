import { homedir } from 'node:os';
import { bwrapArguments, sandboxPlan, type SandboxGuarded } from './agent-sandbox.ts';
import { systemLayout } from './find-sandbox.ts';

/** A turn's sandbox as the caller decides it; null runs the runtime unconfined (the person agreed on the canvas). */
export interface TurnSandbox {
  /** bubblewrap, as `findSandbox` found it. */
  bwrap: string;
  /** Read-only: the runtime's install (`runtimeInstallPaths`) and the turn's materials folder. */
  readOnly: readonly string[];
  /** Read-write: the paths the person granted on the node. */
  granted: readonly string[];
  /** Weft's home and the session roots: no bind may be or hold one (nor the home). */
  guarded: SandboxGuarded;
}

/** What the runtime itself must reach besides the caller's list: its home (read-write) and files it loads. */
export interface RuntimeOwnPaths {
  readOnly: readonly string[];
  writable: readonly string[];
}

/** The command and arguments that start `bin args` in the turn's sandbox, or as they are when there is none. */
export function sandboxedCommand(
  bin: string,
  args: readonly string[],
  sandbox: TurnSandbox | null,
  cwd: string,
  env: NodeJS.ProcessEnv,
  own: RuntimeOwnPaths,
): { command: string; args: string[] } {
  if (!sandbox) return { command: bin, args: [...args] };
  const plan = sandboxPlan(
    {
      cwd,
      readOnly: [bin, sandbox.bwrap, ...sandbox.readOnly, ...own.readOnly],
      writable: sandbox.granted,
      runtimeOwn: own.writable,
      home: env.HOME || homedir(),
      guarded: sandbox.guarded,
      tmpdir: env.TMPDIR || null,
    },
    systemLayout(),
  );
  return { command: sandbox.bwrap, args: [...bwrapArguments(plan, cwd), bin, ...args] };
}
