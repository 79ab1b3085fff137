/**
 * Test support for the kill -9 trial (`archive-kill-trial.test.ts`): archives the corpus named on stdin's first
 * line (JSON `{ weftHome, root, files: [{ path, steps: [bytes…] }] }`) through `SessionArchive.keep`, each file in
 * steps as a growing session file is (the first a whole copy, the rest appended), and prints `start <path> <bytes>`
 * before each keep and `kept <path> <bytes>` after it resolved. Those lines are the acknowledgements the trial holds the archive to. A step the
 * archive already holds is skipped, so a run after a kill goes on where the last one stopped.
 */
import { createInterface } from 'node:readline';
import { SessionArchive } from './session-archive.ts';

interface TrialPlan {
  weftHome: string;
  root: string;
  files: { path: string; steps: number[] }[];
  /** Steps above this are copied streaming, so a kill can land among their writes. */
  wholeReadBytes: number;
}

const line = await new Promise<string>((resolve) => createInterface({ input: process.stdin }).once('line', resolve));
const plan = JSON.parse(line) as TrialPlan;
const archive = new SessionArchive(plan.weftHome, [plan.root], Date.now, plan.wholeReadBytes);
for (const file of plan.files) {
  for (const bytes of file.steps) {
    const kept = archive.entry(file.path, 'claude-code')?.bytes ?? 0;
    if (kept >= bytes) continue;
    process.stdout.write(`start ${file.path} ${bytes}\n`);
    await archive.keep(file.path, 'claude-code', bytes, kept);
    // Pipes are written synchronously on Linux: once this returns, the parent can read it, kill or not.
    process.stdout.write(`kept ${file.path} ${bytes}\n`);
  }
}
process.stdout.write('done\n');
