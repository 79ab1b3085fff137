/** Small text helpers for human output; `--json` prints the same data unformatted. */

export function formatTime(at: number | null): string {
  if (at === null || !Number.isFinite(at)) return '—'.padEnd(17);
  return new Date(at).toISOString().slice(0, 16).replace('T', ' ') + 'Z';
}

export function oneLineText(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

export function printJson(out: (text: string) => void, value: unknown): void {
  out(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Session text is untrusted (it holds fetched pages and tool output): escape sequences in it could retitle
 * the terminal, write the clipboard or hide lines. Human output keeps newlines and tabs, nothing else below
 * the printable range; `--json` escapes control characters itself and keeps the text exact.
 */
export function printable(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}
