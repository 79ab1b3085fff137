import { redactSecrets } from '../runtime/models/index.ts';

/** Server log lines. Never given bodies or keys; injectable so tests can read every line. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createStderrLogger(): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    process.stderr.write(`${JSON.stringify({ at: new Date().toISOString(), level, message, ...fields })}\n`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Wrap a logger so any known secret that slips into a line is replaced before it is written. */
export function redactingLogger(inner: Logger, secrets: () => readonly string[]): Logger {
  const scrub = (text: string): string => redactSecrets(text, secrets());
  const wrap =
    (write: Logger['info']): Logger['info'] =>
    (message, fields) => {
      const cleanFields = fields ? (JSON.parse(scrub(JSON.stringify(fields))) as Record<string, unknown>) : undefined;
      write(scrub(message), cleanFields);
    };
  return { info: wrap(inner.info), warn: wrap(inner.warn), error: wrap(inner.error) };
}
