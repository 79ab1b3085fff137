import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { JsonFileStore } from '../fs/index.ts';

const ConsentFileSchema = z.object({
  /** Canvas id → when the person agreed that its agent turns run without a sandbox. */
  canvases: z.record(z.string(), z.object({ at: z.string() })),
});
type ConsentFile = z.infer<typeof ConsentFileSchema>;

/**
 * Where no sandbox can run (no bubblewrap, no user namespaces, macOS, Windows), the person agrees once per canvas
 * that its agent turns run unconfined. The server keeps that answer in `<WEFT_HOME>/agents/unconfined-consent.json`
 * and checks it before every such turn: a request cannot say it was given.
 */
export class UnconfinedConsent {
  private readonly file: JsonFileStore<ConsentFile>;
  private readonly folder: string;

  constructor(weftHome: string) {
    this.folder = join(weftHome, 'agents');
    this.file = new JsonFileStore(join(this.folder, 'unconfined-consent.json'), ConsentFileSchema, () => ({
      canvases: {},
    }));
  }

  async has(canvasId: string): Promise<boolean> {
    return Object.hasOwn((await this.file.read()).canvases, canvasId);
  }

  async give(canvasId: string, at: Date = new Date()): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await this.file.update((current) => ({
      canvases: { ...current.canvases, [canvasId]: current.canvases[canvasId] ?? { at: at.toISOString() } },
    }));
  }
}
