import { WeftError } from '../../protocol/index.ts';

/** Stable codes for a file under a root that cannot be read as a session: the index reports it as failed. */
export type SessionFormatCode = 'ATLAS_NOT_A_SESSION' | 'ATLAS_BAD_COMPRESSION' | 'ATLAS_TOO_LARGE';

export class SessionFormatError extends WeftError {
  declare readonly code: SessionFormatCode;
  constructor(code: SessionFormatCode, message: string) {
    super(code, `${code}: ${message}`, null);
    this.name = 'SessionFormatError';
  }
}
