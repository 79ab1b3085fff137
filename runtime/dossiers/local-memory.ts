import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isPutAside } from '../../src/core/index.ts';
import { readPutAsides } from '../fs/index.ts';
import type { LocalMemory } from '../index/index.ts';
import { memoryDirectory } from '../memory/index.ts';
import { TopicStore } from '../topics/index.ts';
import { dossierDatabasePath } from './dossier-database.ts';
import { openDossierStore } from './dossier-store.ts';

/**
 * What `weft index --push` sends of this person's memory: `topics.json` and every stored dossier version. Never
 * the profile, the facts inbox or the proposals; struck sentences and labels of put-aside turns are left out by
 * the push (`turnPutAside`: the index's lookup, so a label goes when its turn's words are put aside).
 */
export async function readLocalMemory(home: string, turnPutAside: (turnKey: string) => boolean): Promise<LocalMemory> {
  const { record } = await new TopicStore({
    directory: memoryDirectory(home),
    now: Date.now,
    newId: randomUUID,
  }).read();
  const putAsides = readPutAsides(home);
  // Reading never creates the dossier store: no file, no dossiers.
  const store = existsSync(dossierDatabasePath(home)) ? openDossierStore(home) : null;
  try {
    return {
      topics: record,
      dossiers: (store?.topics() ?? []).flatMap(({ topicId }) => store!.versions(topicId)),
      turnPutAside,
      sentenceStruck: (text) => isPutAside(putAsides, 'dossier-sentence', text),
    };
  } finally {
    store?.close();
  }
}
