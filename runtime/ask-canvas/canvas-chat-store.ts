import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CANVAS_CHAT_FORMAT,
  CANVAS_CHAT_VERSION,
  CanvasChatSchema,
  type AskCanvasTurn,
  type CanvasChat,
} from '../../protocol/index.ts';
import { assertCanvasId, ensurePrivateDirectory, JsonFileStore, type AtomicFileSystem } from '../fs/index.ts';

/** The side chats' folder, beside `canvases/` (never inside it: the why layer reads that folder's records). */
export function canvasChatsDirectory(home: string): string {
  return join(home, 'canvas-chats');
}

/**
 * The side chat of each canvas (C17): `$WEFT_HOME/canvas-chats/<canvas id>.chat.json` (0600, replaced atomically),
 * one turn appended per ask. A corrupt file reads as an empty chat and is moved aside before the next write.
 */
export class CanvasChatStore {
  private readonly files = new Map<string, JsonFileStore<CanvasChat>>();

  constructor(
    private readonly home: string,
    private readonly fileSystem?: AtomicFileSystem,
  ) {}

  private fileOf(canvasId: string): JsonFileStore<CanvasChat> {
    assertCanvasId(canvasId);
    let file = this.files.get(canvasId);
    if (!file) {
      const directory = ensurePrivateDirectory(canvasChatsDirectory(this.home));
      file = new JsonFileStore(
        join(directory, `${canvasId}.chat.json`),
        CanvasChatSchema,
        () => ({ format: CANVAS_CHAT_FORMAT, version: CANVAS_CHAT_VERSION, canvasId, turns: [] }),
        this.fileSystem,
      );
      this.files.set(canvasId, file);
    }
    return file;
  }

  async turns(canvasId: string): Promise<AskCanvasTurn[]> {
    return (await this.fileOf(canvasId).read()).turns;
  }

  async append(canvasId: string, turn: AskCanvasTurn): Promise<void> {
    await this.fileOf(canvasId).update((chat) => ({ ...chat, turns: [...chat.turns, turn] }));
  }

  /** Deletes the chat's file (the canvas was deleted); a chat that was never written is fine. */
  async remove(canvasId: string): Promise<void> {
    assertCanvasId(canvasId);
    const file = this.files.get(canvasId);
    this.files.delete(canvasId);
    // Let a write already queued land first, so it cannot recreate the file after the removal.
    if (file) await file.update((chat) => chat);
    await rm(join(canvasChatsDirectory(this.home), `${canvasId}.chat.json`), { force: true });
  }

  async clear(canvasId: string): Promise<void> {
    await this.fileOf(canvasId).update((chat) => ({ ...chat, turns: [] }));
  }
}
