/**
 * One machine of `bench:team`'s ten pushers, in its own process: pushes the SQLite index named by argv[2] as the
 * machine argv[3] to `WEFT_DATABASE_URL` (passed by environment, never on the command line) and prints
 * `{ durationMs }` as JSON.
 */
import { openIndexDatabase, PostgresIndex } from '../../../runtime/index/index.ts';

const { database } = openIndexDatabase(process.argv[2]!);
const team = await PostgresIndex.open(process.env.WEFT_DATABASE_URL!);
const started = performance.now();
const machine = process.argv[3]!;
await team.push(database, { id: machine, name: machine, person: 'bench' });
const durationMs = performance.now() - started;
await team.close();
database.close();
console.log(JSON.stringify({ durationMs }));
