/**
 * Test support for the push trials (`push-trial.test.ts`): one machine's `weft index --push` as its own process.
 * Reads `WEFT_HOME` (the machine's index, already built) and `WEFT_DATABASE_URL`, pushes, and prints the summary
 * as JSON. With `WEFT_PUSH_TRIAL_KILL_AT=n` it SIGKILLs itself inside the n-th source's transaction, its rows
 * written and not yet committed: the worst moment for a crash.
 */
import { indexDatabasePath } from '../fs/index.ts';
import { readMachineIdentity } from './machine-identity.ts';
import { openIndexDatabase } from './open-index-database.ts';
import { PostgresIndex } from './postgres-index.ts';

const home = process.env.WEFT_HOME!;
const killAt = Number(process.env.WEFT_PUSH_TRIAL_KILL_AT ?? 0);
const { database } = openIndexDatabase(indexDatabasePath(home));
const team = await PostgresIndex.open(process.env.WEFT_DATABASE_URL!);
let written = 0;
const summary = await team.push(database, readMachineIdentity(home), {
  beforeCommit: () => {
    written += 1;
    if (written === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
await team.close();
database.close();
process.stdout.write(`${JSON.stringify(summary)}\n`);
