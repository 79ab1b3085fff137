import { z } from 'zod';
import { MaterialProvenanceSchema } from './canvas-document.ts';

/**
 * Imports (C34). `POST /api/imports/conversations?name=<file>` takes a ChatGPT or Claude.ai `conversations.json`
 * as the raw body and answers `ImportStatus` (202) at once; the import runs on, reported by `import-progress` on
 * `/api/stream` and by `GET /api/imports/:id`; `DELETE /api/imports/:id` cancels it (nothing is kept).
 * `POST /api/materials/document?name=<file>` reads a Markdown, HTML or DOCX file into a `DocumentMaterialResponse`.
 */
export const ImportStateSchema = z.enum(['running', 'done', 'failed', 'cancelled']);
export type ImportState = z.infer<typeof ImportStateSchema>;

export const ImportStatusSchema = z.object({
  importId: z.string(),
  fileName: z.string(),
  state: ImportStateSchema,
  phase: z.enum(['uploading', 'reading', 'storing']),
  bytesRead: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  conversations: z.number().int().nonnegative(),
  /** The canvases made, once the import is done (one per conversation). */
  canvasIds: z.array(z.string()),
  /**
   * Issue 29.2, once done: how many messages arrived archived because their words were put aside before (on the
   * canvas, out of every read). Absent while running.
   */
  putAside: z.number().int().nonnegative().optional(),
  /** Why a failed import was refused; `line` and `column` point into the file when known. */
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      line: z.number().int().positive().nullable(),
      column: z.number().int().positive().nullable(),
    })
    .nullable(),
});
export type ImportStatus = z.infer<typeof ImportStatusSchema>;

export const ImportProgressEventSchema = ImportStatusSchema.extend({ type: z.literal('import-progress') });
export type ImportProgressEvent = z.infer<typeof ImportProgressEventSchema>;

export const DocumentMaterialResponseSchema = z.object({
  title: z.string(),
  text: z.string(),
  provenance: MaterialProvenanceSchema,
});
export type DocumentMaterialResponse = z.infer<typeof DocumentMaterialResponseSchema>;
