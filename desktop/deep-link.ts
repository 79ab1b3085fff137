/** `weft://` links (C27): open a canvas, optionally at a node or a mirrored turn. */
export const DEEP_LINK_SCHEME = 'weft';

export interface DeepLink {
  canvasId: string;
  nodeId: string | null;
  turnKey: string | null;
}

const ID = /^[A-Za-z0-9_-]{1,100}$/;
const TURN_KEY = /^[\w:.@/-]{1,300}$/;

/**
 * Parse `weft://canvas/<canvasId>[/node/<nodeId>][/turn/<turnKey>]`. Anything else (other schemes,
 * malformed ids, extra segments) is null: a link from outside never drives the app anywhere odd.
 */
export function parseDeepLink(url: string): DeepLink | null {
  // URL parsing would quietly resolve dot segments; a link that contains them is refused instead.
  if (/\/\.{1,2}(\/|$|\?|#)/.test(url) || /%2e/i.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
  // `weft://canvas/abc` parses with host "canvas"; `weft:canvas/abc` has no host.
  const path = `${parsed.host}${parsed.pathname}`.replace(/^\/+|\/+$/g, '');
  const segments = path.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return '\u0000';
    }
  });
  if (segments[0] !== 'canvas' || !segments[1] || !ID.test(segments[1])) return null;
  const link: DeepLink = { canvasId: segments[1], nodeId: null, turnKey: null };
  for (let index = 2; index < segments.length; index += 2) {
    const kind = segments[index];
    const value = segments[index + 1];
    if (kind === 'node' && value && ID.test(value) && link.nodeId === null) link.nodeId = value;
    else if (kind === 'turn' && value && TURN_KEY.test(value) && link.turnKey === null) link.turnKey = value;
    else return null;
  }
  return link;
}

/** The first `weft://` argument on a command line (Windows and Linux pass links as arguments). */
export function deepLinkFromArgv(argv: readonly string[]): DeepLink | null {
  for (const argument of argv) {
    if (argument.startsWith(`${DEEP_LINK_SCHEME}:`)) {
      const link = parseDeepLink(argument);
      if (link) return link;
    }
  }
  return null;
}
