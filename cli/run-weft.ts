import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from './main.ts';
import type { Terminal } from './terminal.ts';

/** Test support: runs the real `bin/weft.mjs` in a child process, as a person's shell would. */
export const WEFT_BIN = fileURLToPath(new URL('../bin/weft.mjs', import.meta.url));

export interface WeftRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runWeft(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<WeftRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [WEFT_BIN, ...args],
      { env: options.env, cwd: options.cwd ?? process.cwd(), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Test support: runs one command line in this process through `main`, with the given folder and environment, and
 * returns what it printed and its exit code (`process.exitCode` is restored to 0 after).
 */
export async function runWeftInProcess(
  argv: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<WeftRun> {
  let stdout = '';
  let stderr = '';
  const io: Terminal = {
    out: (text) => void (stdout += text),
    err: (text) => void (stderr += text),
    errIsTTY: false,
    cwd: options.cwd,
    env: options.env,
  };
  process.exitCode = 0;
  await main(argv, io);
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, stdout, stderr };
}
