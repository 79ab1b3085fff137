import { readFileSync } from 'node:fs';

/** Parse a `.env` file's text: KEY=value lines, optional `export`, quotes and `#` comments. */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const key = match[1]!;
    let value = match[2]!;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.lastIndexOf(quote) > 0) {
      value = value.slice(1, value.lastIndexOf(quote));
      if (quote === '"') value = value.replace(/\\n/g, '\n');
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    values[key] = value;
  }
  return values;
}

/** Read `.env` if present; a missing or unreadable file is simply no values. */
export function readDotenvFile(path: string): Record<string, string> {
  try {
    return parseDotenv(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
}
