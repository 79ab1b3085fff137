import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import { teamDatabaseUrl } from '../open-why-index.ts';
import type { Terminal } from '../terminal.ts';

/**
 * `weft db`: a team index's set-up, run by its admin. `init` builds the schema and the read and write groups, and
 * with `--person` that person's login role, whose connection string goes to a new 0600 file and nowhere else;
 * `grant` / `revoke` say which projects (a folder, or `canvas:<id>`) a person may read; `grants` lists them.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const { initTeamDatabase, grantProject, revokeProject, listGrants, projectName, safeLocation, withTeamClient } =
    await import('../../runtime/index/index.ts');
  const url = teamDatabaseUrl(io, command.flags.db);
  if (!url) throw new CliError('bad-usage', 'weft db needs --db postgres://… or WEFT_DATABASE_URL', 2);
  const [action, ...rest] = command.positionals;
  const location = safeLocation(url);
  if (action === 'init' && rest.length === 0) {
    const person = command.flags.person as string | undefined;
    const out = command.flags.out as string | undefined;
    if ((person === undefined) !== (out === undefined))
      throw new CliError('bad-usage', '--person and --out go together (the new connection string is written there)', 2);
    // Made first (`wx`: never over an existing file; 0600: it will hold a password), so a refused file leaves the
    // person's current password as it was.
    const file = out === undefined ? null : resolve(io.cwd, out);
    const descriptor = file === null ? null : openSync(file, 'wx', 0o600);
    let init;
    try {
      init = await withTeamClient(url, (client) => initTeamDatabase(client, url, person));
      if (descriptor !== null && init.person) writeSync(descriptor, `${init.person.url}\n`);
    } catch (error) {
      if (file !== null) rmSync(file, { force: true });
      throw error;
    } finally {
      if (descriptor !== null) closeSync(descriptor);
    }
    const made = init.person && file ? { person: init.person.name, role: init.person.role, file } : null;
    if (command.flags.json) printJson(io.out, { location, applied: init.applied, ...(made ? { made } : {}) });
    else
      io.out(
        `team index at ${location}: ${init.applied.length === 0 ? 'schema current' : `migrations ${init.applied.join(', ')} applied`}, roles weft_read and weft_write\n` +
          (made ? `made role ${made.role} for ${made.person}; connection string written to ${made.file}\n` : ''),
      );
    return 0;
  }
  if ((action === 'grant' || action === 'revoke') && rest.length === 2) {
    const [person, given] = rest as [string, string];
    const project = given.startsWith('canvas:') ? given : projectName(resolve(io.cwd, given));
    const changed = await withTeamClient(url, async (client) => {
      if (action === 'revoke') return revokeProject(client, person, project);
      await grantProject(client, person, project);
      return true;
    });
    if (command.flags.json) printJson(io.out, { person, project, action, changed });
    else io.out(`${action === 'grant' ? 'granted' : changed ? 'revoked' : 'no such grant:'} ${person} ${project}\n`);
    return 0;
  }
  if (action === 'grants' && rest.length === 0) {
    const grants = await withTeamClient(url, listGrants);
    if (command.flags.json) printJson(io.out, grants);
    else io.out(grants.map((grant) => `${grant.person}\t${grant.project}\n`).join(''));
    return 0;
  }
  throw new CliError('bad-usage', `usage: ${command.command.usage}`, 2);
}
