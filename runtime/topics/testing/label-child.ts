// Test support: one separate process writing labels into the topic table, for the concurrent-writers test. It says
// it is ready, then waits for the `go` file, so all the writers write at the same moment.
// Usage: node --import tsx label-child.ts <memoryDirectory> <count> <tag>
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withLabel } from '../../../src/core/topics/index.ts';
import { nodeHashPort } from '../../hash/index.ts';
import { TopicStore } from '../topic-store.ts';

const [directory, count, tag] = process.argv.slice(2);
const store = new TopicStore({ directory: directory!, now: Date.now, newId: randomUUID, hash: nodeHashPort });
writeFileSync(join(directory!, `ready-${tag}`), '');
while (!existsSync(join(directory!, 'go'))) await new Promise((resolve) => setTimeout(resolve, 5));
for (let index = 0; index < Number(count); index += 1) {
  const turnKey = `canvas:${tag}#n${index}@v`;
  await store.update(null, ({ record }) => ({
    record: withLabel(record, { turnKey, contentHash: 'h', topicIds: [], by: 'name', at: index }),
    events: [{ op: 'topics-labelled', objectId: 'topics', meta: { tag: tag!, index } }],
    result: null,
  }));
}
