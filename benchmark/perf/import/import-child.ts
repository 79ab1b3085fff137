/**
 * Runs one conversations import in its own process so the benchmark can read this process's peak RSS.
 * Arguments: the export file and a WEFT_HOME. Prints one JSON line:
 * { durationMs, bytes, conversations, questions, versions, canvases, maxRssKB }.
 */
import { join } from 'node:path';
import { CanvasStore, canvasesDirectory, ensurePrivateDirectory, ensureWeftHome } from '../../../runtime/fs/index.ts';
import { nodeHashPort } from '../../../runtime/hash/index.ts';
import { importConversations, importIdGenerator } from '../../../runtime/import/index.ts';

const [file, home] = process.argv.slice(2) as [string, string];
ensureWeftHome(home);
const canvases = ensurePrivateDirectory(canvasesDirectory(home));
const newId = importIdGenerator();
const started = performance.now();
const result = await importConversations(file, {
  canvases: new CanvasStore({ directory: canvases }),
  stagingDirectory: ensurePrivateDirectory(join(home, 'imports')),
  importId: newId(),
  now: Date.now,
  newId,
  hash: nodeHashPort,
});
console.log(
  JSON.stringify({
    durationMs: performance.now() - started,
    bytes: result.bytes,
    conversations: result.conversations,
    questions: result.questions,
    versions: result.versions,
    canvases: result.canvasIds.length,
    maxRssKB: process.resourceUsage().maxRSS,
  }),
);
