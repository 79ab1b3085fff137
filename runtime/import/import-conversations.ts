import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CanvasDocument } from '../../protocol/index.ts';
import {
  conversationCanvas,
  isPutAside,
  nodeContent,
  type HashPort,
  type ImportSource,
  type PutAsides,
} from '../../src/core/index.ts';
import type { CanvasStore } from '../fs/index.ts';
import { isChatgptConversation, readChatgptConversation } from './chatgpt-conversation.ts';
import { isClaudeConversation, readClaudeConversation } from './claude-conversation.ts';
import { ImportError, positionAt } from './import-error.ts';
import { readJsonArray } from './json-array-reader.ts';

export interface ImportProgress {
  phase: 'reading' | 'storing';
  bytesRead: number;
  totalBytes: number;
  conversations: number;
}

export interface ConversationImportOptions {
  canvases: CanvasStore;
  /** Where canvases wait until the whole file has been read (`$WEFT_HOME/imports`). */
  stagingDirectory: string;
  importId: string;
  now: () => number;
  newId: () => string;
  hash?: HashPort;
  /** The tombstones in force (issue 29.2): a message put aside arrives archived, so nothing brings it back. */
  putAsides?: PutAsides;
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ConversationImportResult {
  importId: string;
  canvasIds: string[];
  conversations: number;
  questions: number;
  versions: number;
  forks: number;
  attachments: number;
  /** Questions whose words were put aside before: they arrive archived (listed on the canvas, out of every read). */
  putAside: number;
  bytes: number;
  sources: Record<ImportSource, number>;
}

/**
 * Imports a ChatGPT or Claude.ai `conversations.json`: one new canvas per conversation (`conversationCanvas`).
 * All or nothing: while the file streams, each canvas is only staged under `stagingDirectory`; the records are
 * stored once the whole file has been read, and if storing fails or the import is cancelled on the way, the
 * records already stored are deleted again. A malformed file is refused with its line and column.
 */
export async function importConversations(
  filePath: string,
  options: ConversationImportOptions,
): Promise<ConversationImportResult> {
  const staging = join(options.stagingDirectory, options.importId);
  await mkdir(staging, { recursive: true, mode: 0o700 });
  const staged: string[] = [];
  const result: ConversationImportResult = {
    importId: options.importId,
    canvasIds: [],
    conversations: 0,
    questions: 0,
    versions: 0,
    forks: 0,
    attachments: 0,
    putAside: 0,
    bytes: 0,
    sources: { chatgpt: 0, claude: 0 },
  };
  const stored: string[] = [];
  try {
    const read = await readJsonArray(
      filePath,
      async (value, index, start) => {
        const parsed = isChatgptConversation(value)
          ? readChatgptConversation(value)
          : isClaudeConversation(value)
            ? readClaudeConversation(value)
            : null;
        if (!parsed)
          throw new ImportError(
            'import-unknown-format',
            `Conversation ${index + 1} is neither a ChatGPT conversation (no "mapping") nor a Claude.ai one (no "chat_messages")`,
            await positionAt(filePath, start),
          );
        if (!parsed.ok)
          throw new ImportError(
            'import-malformed',
            `Conversation ${index + 1} is ${parsed.reason}`,
            await positionAt(filePath, start),
          );
        const now = options.now();
        const { document, counts } = conversationCanvas(parsed.conversation, {
          now,
          newId: options.newId,
          hash: options.hash,
          importId: options.importId,
        });
        result.putAside += archivePutAside(document, options.putAsides, now, options.hash);
        await writeFile(join(staging, `${document.canvas.id}.json`), JSON.stringify(document), { mode: 0o600 });
        staged.push(document.canvas.id);
        result.conversations += 1;
        result.questions += counts.questions;
        result.versions += counts.versions;
        result.forks += counts.forks;
        result.attachments += counts.attachments;
        result.sources[parsed.conversation.source] += 1;
      },
      {
        signal: options.signal,
        onProgress: (bytesRead, totalBytes) =>
          options.onProgress?.({ phase: 'reading', bytesRead, totalBytes, conversations: result.conversations }),
      },
    );
    result.bytes = read.bytes;
    for (const id of staged) {
      if (options.signal?.aborted) throw new ImportError('import-cancelled', 'The import was cancelled.');
      const document = JSON.parse(await readFile(join(staging, `${id}.json`), 'utf8')) as CanvasDocument;
      await options.canvases.write(id, document, { baseRevision: null });
      stored.push(id);
      options.onProgress?.({
        phase: 'storing',
        bytesRead: read.bytes,
        totalBytes: read.bytes,
        conversations: stored.length,
      });
    }
    result.canvasIds = stored;
    return result;
  } catch (error) {
    // Nothing half-imported: every record this import stored goes again (a rollback, so nothing is put aside).
    for (const id of stored) await options.canvases.delete(id, { putAside: false }).catch(() => undefined);
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Archives, in place, every question of an imported canvas whose words were put aside as an imported message: a
 * re-import of the same export keeps the conversation's shape (children stay attached) and brings none of it back.
 */
function archivePutAside(document: CanvasDocument, putAsides: PutAsides | undefined, now: number, hash?: HashPort) {
  if (!putAsides || putAsides.size === 0) return 0;
  let count = 0;
  document.nodes = document.nodes.map((node) => {
    const content = nodeContent(node);
    if (!content || node.archived || !isPutAside(putAsides, content.kind, content.text, hash)) return node;
    count += 1;
    return { ...node, archived: true, archivedAt: now };
  });
  return count;
}
