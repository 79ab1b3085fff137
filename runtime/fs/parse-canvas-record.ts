import {
  CANVAS_VERSION,
  CanvasDocumentSchema,
  migrateCanvasDocument,
  WeftError,
  type CanvasDocument,
} from '../../protocol/index.ts';

/** Explain the first few schema problems in words a person can act on. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : '(document)'}: ${issue.message}`)
    .join('; ');
}

/** A stored file: JSON, lifted through the named migrations in memory (the file stays as it is). */
export function parseStored(id: string, text: string): CanvasDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WeftError(
      'corrupt-record',
      `The stored record for "${id}" is not valid JSON; it was left untouched.`,
      422,
    );
  }
  const loaded = migrateCanvasDocument(json);
  if (!loaded.ok) {
    throw new WeftError(
      'corrupt-record',
      `The stored record for "${id}" cannot be read: ${loaded.error.message} It was left untouched.`,
      422,
    );
  }
  return loaded.document;
}

/** A document sent to be stored: the current version only (import migrates older files first). */
export function parseIncoming(id: string, document: unknown): CanvasDocument {
  const version = (document as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > CANVAS_VERSION) {
    // The same refusal, and code, as importing such a file.
    throw new WeftError(
      'newer-version',
      `This canvas was made by a newer Weft (format version ${version}; this Weft reads up to ${CANVAS_VERSION}). Update Weft to save it.`,
      409,
    );
  }
  const parsed = CanvasDocumentSchema.safeParse(document);
  if (!parsed.success) {
    throw new WeftError('invalid-canvas', `Not a valid canvas document: ${describeIssues(parsed.error.issues)}.`, 400);
  }
  if (parsed.data.canvas.id !== id) {
    throw new WeftError('invalid-canvas', `The document is canvas "${parsed.data.canvas.id}", not "${id}".`, 400);
  }
  return parsed.data;
}
