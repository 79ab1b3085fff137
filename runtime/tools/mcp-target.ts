// Flags whose next argument (or `=` value) is a key: never shown, and scrubbed from what Weft keeps.
const SECRET_FLAGS = new Set(['--token', '--key', '--api-key', '--password']);
const HIDDEN = '…';

/** The values of `args` that follow a key flag (`--token KEY` or `--token=KEY`). */
export function secretArgs(args: readonly string[]): string[] {
  const secrets: string[] = [];
  args.forEach((arg, index) => {
    const equals = arg.indexOf('=');
    if (equals > 0 && SECRET_FLAGS.has(arg.slice(0, equals).toLowerCase())) secrets.push(arg.slice(equals + 1));
    else if (SECRET_FLAGS.has(arg.toLowerCase()) && index + 1 < args.length) secrets.push(args[index + 1]!);
  });
  return secrets;
}

/** A stdio server's command line as shown (Settings, `GET /api/mcp/servers`): a key flag's value is `…`. */
export function shownCommand(command: string, args: readonly string[]): string {
  const shown = args.map((arg, index) => {
    const equals = arg.indexOf('=');
    if (equals > 0 && SECRET_FLAGS.has(arg.slice(0, equals).toLowerCase())) return `${arg.slice(0, equals)}=${HIDDEN}`;
    const previous = args[index - 1];
    return previous !== undefined && SECRET_FLAGS.has(previous.toLowerCase()) ? HIDDEN : arg;
  });
  return [command, ...shown].join(' ');
}

/** An HTTP server's URL as shown: origin and path only (a query such as `?token=` or user info may hold a key). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return HIDDEN;
  }
}

/** The parts of a URL that may be keys — query values and a password — for scrubbing. */
export function secretUrlParts(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [...parsed.searchParams.values(), decodeURIComponent(parsed.password)].filter(Boolean);
  } catch {
    return [];
  }
}
