/** Where a command writes, and what it knows about its surroundings; tests may pass their own. */
export interface Terminal {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal: only then is a progress bar drawn. */
  errIsTTY: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export function terminal(): Terminal {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    errIsTTY: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    env: process.env,
  };
}
