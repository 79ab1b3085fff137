import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * Read `.env` with Node's own parser (`util.parseEnv`: `export`, single/double/backtick quotes, `#`
 * comments, `\n` in double quotes, LF or CRLF line ends). A missing or unreadable file is simply no values.
 */
export function readDotenvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(parseEnv(text))) if (value !== undefined) values[key] = value;
  return values;
}

/** The environment a server sees: `.env` fills in only what is not already set (a set variable wins). */
export function environmentWithDotenv(
  environment: Record<string, string | undefined>,
  dotenvPath: string | null,
): Record<string, string | undefined> {
  return { ...(dotenvPath ? readDotenvFile(dotenvPath) : {}), ...environment };
}
