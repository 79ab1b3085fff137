import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { bundleRequest, readContextBundle } from '../../protocol/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import type { Terminal } from '../terminal.ts';

/**
 * `weft bundle verify <file>`: re-computes a Context Bundle's request hash (C9: SHA-256 over the canonical
 * request its model, messages and tools form — `bundleRequest`) and compares it with the one it carries. Exit 0
 * intact, 1 not.
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const [action, name] = command.positionals as [string, string];
  if (action !== 'verify')
    throw new CliError('bad-usage', `unknown bundle action "${action}" (usage: weft bundle verify <file>)`, 2);
  const [{ hashCanonical }, { nodeHashPort }] = await Promise.all([
    import('../../src/core/index.ts'),
    import('../../runtime/hash/index.ts'),
  ]);
  const file = resolve(io.cwd, name);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CliError(error.code === 'ENOENT' ? 'not-found' : 'unreadable', `cannot read ${file}: ${error.message}`);
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CliError('corrupt', `${file} is not JSON`);
  }
  const read = readContextBundle(raw);
  if (!read.ok) throw new CliError(read.error.code, `${file}: ${read.error.message}`);
  const bundle = read.bundle;
  const computed = hashCanonical(bundleRequest(bundle), nodeHashPort);
  const intact = computed === bundle.requestHash && bundle.sources.length === bundle.messages.length;
  const message = intact
    ? `intact: ${bundle.messages.length} messages hash to ${computed}`
    : computed !== bundle.requestHash
      ? `changed: the messages hash to ${computed}, the bundle says ${bundle.requestHash}`
      : `damaged: ${bundle.sources.length} sources for ${bundle.messages.length} messages`;
  if (command.flags.json)
    printJson(io.out, { file, intact, requestHash: bundle.requestHash, computedHash: computed, message });
  else io.out(`${name}: ${message}\n`);
  return intact ? 0 : 1;
}
