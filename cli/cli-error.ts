import { WeftError } from '../protocol/index.ts';

/** A refusal the CLI reports as one line on stderr; `exitCode` 2 marks a usage error. */
export class CliError extends WeftError {
  readonly exitCode: number;

  constructor(code: string, message: string, exitCode = 1) {
    super(code, message, null);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}
