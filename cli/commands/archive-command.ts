import { resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { formatTime, printJson } from '../format.ts';
import { openFreshIndex } from '../open-why-index.ts';
import { megabytes } from '../progress-bar.ts';
import type { Terminal } from '../terminal.ts';

/**
 * `weft archive verify`: re-reads every archived copy of a session file and names the first bad one (exit 0
 * intact, 1 bad). `weft archive export <session> <folder>`: writes a session's original bytes from its copy into
 * a folder outside the session roots and WEFT_HOME, never over an existing file.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const [action, ...rest] = command.positionals;
  if (action === 'verify' && rest.length === 0) return verify(command, io);
  if (action === 'export' && rest.length === 2) return exportSession(command, io, rest[0]!, rest[1]!);
  throw new CliError('bad-usage', `usage: ${command.command.usage}`, 2);
}

async function verify(command: ParsedCommand, io: Terminal): Promise<number> {
  const { SessionArchive, resolveWeftHome, verifyArchive } = await import('../../runtime/index/index.ts');
  // Only reads: no index is opened, so a verify also runs while another process is indexing.
  const archive = new SessionArchive(resolveWeftHome(io.env), [], Date.now);
  const result = await verifyArchive(archive.directory);
  const intact = result.bad === 0;
  const summary =
    `${result.copies} copies, ${megabytes(result.bytes)} MB of session files, ` +
    `${result.unverified} unverified (kept before Weft hashed copies), ${result.bad} bad`;
  const message = result.firstBad
    ? `${summary}; first bad: ${result.firstBad.path} (${result.firstBad.runner}): ${result.firstBad.reason}`
    : `intact: ${summary}`;
  if (command.flags.json) printJson(io.out, { directory: archive.directory, intact, ...result, message });
  else io.out(`${message}\nverified  ${formatTime(result.verifiedAt)} in ${archive.directory}\n`);
  return intact ? 0 : 1;
}

async function exportSession(command: ParsedCommand, io: Terminal, session: string, folder: string): Promise<number> {
  const index = await openFreshIndex(io);
  try {
    const written = await index.exportSession(session, resolve(io.cwd, folder));
    if (command.flags.json) printJson(io.out, { session, files: written });
    else
      io.out(
        written
          .map(
            (file) =>
              `wrote ${file.path} (${file.bytes} bytes, sha256 ${file.sha256}${file.verified ? ', as archived' : ', copy kept before Weft hashed copies'})\n`,
          )
          .join(''),
      );
    return 0;
  } finally {
    index.close();
  }
}
