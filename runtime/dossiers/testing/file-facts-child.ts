// Test support: one separate process filing facts into a dossier store, for the concurrent filing test. It opens
// the store, says it is ready, and waits for the `go` file, so all the filers write at the same moment.
// Usage: node --import tsx file-facts-child.ts <weftHome> <count> <tag> <topicId|->
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDossierStore } from '../dossier-store.ts';

const [home, count, tag, topic] = process.argv.slice(2);
const store = openDossierStore(home!);
writeFileSync(join(home!, `ready-${tag}`), '');
while (!existsSync(join(home!, 'go'))) await new Promise((resolve) => setTimeout(resolve, 5));
for (let index = 0; index < Number(count); index += 1)
  store.fileFact({
    text: `${tag} fact ${index}`,
    turnKey: `canvas:${tag}#n${index}@v`,
    topicIds: topic === '-' ? [] : [topic!],
  });
store.close();
