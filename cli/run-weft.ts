import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
