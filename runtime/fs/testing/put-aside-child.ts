// Test support: one separate process putting words aside, one append at a time, for the put-aside log's
// cross-process test. It says it is ready, then waits for the `go` file, so it appends while the test restores.
// Usage: node --import tsx put-aside-child.ts <weftHome> <count> <tag>
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutAsideStore } from '../put-aside-store.ts';
import { struckSentenceChange } from './struck-sentence-change.ts';

const [home, count, tag] = process.argv.slice(2);
const store = new PutAsideStore(home!);
writeFileSync(join(home!, `ready-${tag}`), '');
while (!existsSync(join(home!, 'go'))) await new Promise((resolve) => setTimeout(resolve, 5));
for (let index = 0; index < Number(count); index += 1) {
  const text = `Sentence ${index} struck by process ${tag}`;
  await store.append([
    struckSentenceChange(text, { at: index, origin: { topicId: `topic-${tag}`, sentenceId: `sentence-${index}` } }),
  ]);
}
