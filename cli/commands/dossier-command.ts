import { DOSSIER_SECTIONS } from '../../protocol/index.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import { openIndexReader } from '../open-why-index.ts';
import type { Terminal } from '../terminal.ts';

const TITLES: Record<(typeof DOSSIER_SECTIONS)[number], string> = {
  what: 'What it is',
  decisions: 'Decisions taken',
  status: 'Where it stands',
  open: 'What is open',
};

/**
 * `weft dossier <topic> [--json]` (C15): a topic's dossier by name or id, each sentence with the turn keys it
 * cites and since when it holds (#29.4: from the first version that said it; every sentence is a model's summary,
 * so inferred); a sentence whose sources are all archived or deleted is marked `[sources gone]`. With
 * `WEFT_DATABASE_URL`, from the team index (the dossiers every machine pushed, as this person may read them).
 */
export async function run(command: ParsedCommand, io: Terminal): Promise<number> {
  const { resolveWeftHome } = await import('../../runtime/fs/index.ts');
  const { readTopicDossier } = await import('../../runtime/dossiers/index.ts');
  const home = resolveWeftHome(io.env);
  const { reader, index, close } = await openIndexReader(io);
  try {
    const found = await readTopicDossier(home, command.positionals[0]!, index.database, false, reader.teamMemory);
    if (command.flags.json === true) {
      printJson(io.out, found);
      return 0;
    }
    io.out(`${found.topic.name}  ${found.topic.id}\n`);
    if (!found.dossier) {
      io.out('no dossier yet: build it on the memory page\n');
      return 0;
    }
    io.out(`version ${found.dossier.version}, written ${new Date(found.dossier.writtenAt).toISOString()}\n`);
    const retired = new Set(found.retired);
    for (const section of DOSSIER_SECTIONS) {
      io.out(`\n${TITLES[section]}\n`);
      const sentences = found.dossier.sections[section];
      if (sentences.length === 0) io.out('  (nothing yet)\n');
      for (const sentence of sentences) {
        const held = found.validity[sentence.id];
        io.out(
          `  - ${retired.has(sentence.id) ? '[sources gone] ' : ''}${sentence.text}  [${sentence.citations.join(', ')}]` +
            `${held ? `  (inferred, holds since ${new Date(held.from).toISOString()})` : ''}\n`,
        );
      }
    }
    return 0;
  } finally {
    await close();
  }
}
