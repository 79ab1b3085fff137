import type { MemoryProfile } from '../../protocol/index.ts';

/** The UI offers Undo for eight seconds; the server keeps a write's snapshots a little longer for a slow click. */
export const UNDO_KEEP_MS = 60_000;

export interface PendingUndo {
  before: MemoryProfile;
  after: MemoryProfile;
  lineIds: string[];
  canvasId: string;
  at: number;
}

/** The profile before and after each recent admission, by undo id, so Undo restores the documents exactly. */
export class UndoBook {
  private readonly pending = new Map<string, PendingUndo>();

  constructor(
    private readonly now: () => number,
    private readonly newId: () => string,
  ) {}

  put(before: MemoryProfile, after: MemoryProfile, lineIds: string[], canvasId: string): string {
    this.prune();
    const id = this.newId();
    this.pending.set(id, { before, after, lineIds, canvasId, at: this.now() });
    return id;
  }

  /** The pending undo (removed: an undo runs once), or null when unknown or expired. */
  take(id: string): PendingUndo | null {
    this.prune();
    const found = this.pending.get(id) ?? null;
    this.pending.delete(id);
    return found;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, entry] of this.pending) if (now - entry.at > UNDO_KEEP_MS) this.pending.delete(id);
  }
}
