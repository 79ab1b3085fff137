import { canvasPatchBetween, type CanvasDocument, type CanvasPatch } from '../../../protocol/index.ts';

/**
 * The last document each canvas's durable record was read or saved as, with that revision. A save based on the
 * same revision sends only the records that changed since (`PATCH`); any other save sends the whole document.
 * It holds the same record objects as the page's graph, so it costs only the arrays.
 */
export class SavedCopies {
  private readonly copies = new Map<string, { revision: string; document: CanvasDocument }>();

  remember(revision: string, document: CanvasDocument): void {
    this.copies.set(document.canvas.id, { revision, document });
  }

  forget(canvasId: string): void {
    this.copies.delete(canvasId);
  }

  /** The changes from the copy saved at `baseRevision` to `document`, or null when there is no such copy. */
  patchFor(document: CanvasDocument, baseRevision: string | null): CanvasPatch | null {
    const copy = this.copies.get(document.canvas.id);
    if (!copy || baseRevision === null || copy.revision !== baseRevision) return null;
    return canvasPatchBetween(copy.document, document);
  }
}
