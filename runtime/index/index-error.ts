import { WeftError } from '../../protocol/index.ts';

/** Errors of the why index carry a stable code so the CLI and MCP can map them to one-line messages. */
export type IndexErrorCode =
  | 'index-open-failed'
  | 'index-corrupt'
  | 'turn-not-found'
  | 'bad-query'
  | 'bad-target'
  | 'weft-home-unsafe'
  | 'archive-missing'
  | 'archive-copy-bad'
  | 'export-folder-refused'
  | 'export-file-exists'
  | 'bad-person'
  | 'bad-project';

export class IndexError extends WeftError {
  declare readonly code: IndexErrorCode;

  constructor(code: IndexErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, null, options);
    this.name = 'IndexError';
  }
}
