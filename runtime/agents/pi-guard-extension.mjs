// Weft's guard, loaded into Pi alone (`pi --no-extensions -e <this file>`). It runs inside Pi's process, so it
// imports nothing from Weft: the mode and the timeout come from the environment Weft starts Pi with.
//
// A tool call that needs a person becomes a `select` dialog; in RPC mode Pi writes it to stdout as an
// `extension_ui_request` whose title is `weft-guard ` + JSON (the tool, its arguments, the path that leaves the
// working directory). Weft answers with one of the three options. No answer in time, a cancel, no UI or any
// error means deny: the call is blocked and the model is told why.
import { readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export const ALLOW_ONCE = 'Allow once';
export const ALLOW_TURN = 'Allow for this turn';
export const DENY = 'Deny';
const PREFIX = 'weft-guard ';

const PATH_TOOLS = new Set(['read', 'write', 'edit', 'ls', 'find', 'grep']);
const MAX_LINKS = 40;
// Pi 0.73's tools (core/tools/path-utils.js expandPath) read these as a plain space.
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * A tool's path the way Pi's own tools read it: a leading `@` dropped, unicode spaces made plain, `~` expanded.
 * The guard must judge the path the tool will open, not the text the model wrote.
 */
export function expandPiPath(named) {
  const plain = (named.startsWith('@') ? named.slice(1) : named).replace(UNICODE_SPACES, ' ');
  if (plain === '~') return homedir();
  if (plain.startsWith('~/')) return homedir() + plain.slice(1);
  return plain;
}

const outside = (root, target) => {
  const fromRoot = relative(root, target);
  return fromRoot === '..' || fromRoot.startsWith('..' + sep) || isAbsolute(fromRoot);
};

/**
 * Where `path` really is: the realpath of its deepest existing ancestor plus the rest. A dangling link is followed
 * to where it points (writing through it creates that file); null for a link loop, whose end nobody can name.
 */
function realLocation(path, links = 0) {
  try {
    return realpathSync(path);
  } catch {
    // missing, a dangling link or a loop: look closer below
  }
  let link = null;
  try {
    link = readlinkSync(path);
  } catch {
    // not a link
  }
  if (link !== null) return links >= MAX_LINKS ? null : realLocation(resolve(dirname(path), link), links + 1);
  const parent = dirname(path);
  if (parent === path) return path;
  const realParent = realLocation(parent, links);
  return realParent === null ? null : join(realParent, basename(path));
}

/**
 * The path outside `root` that the absolute `target` reaches — by its text (`..`, an absolute path) or through a
 * link inside the folder — or null when it stays inside. Exported for Weft's other runtimes: the guard must run
 * alone inside Pi, so the one implementation lives here.
 */
export function pathOutsideFolder(root, target) {
  const folder = resolve(root);
  if (outside(folder, target)) return target;
  const real = realLocation(target);
  if (real === null) return target;
  return outside(realLocation(folder) ?? folder, real) ? real : null;
}

function leavingPath(cwd, input) {
  const named = typeof input?.path === 'string' ? input.path : '.';
  return pathOutsideFolder(cwd, resolve(cwd, expandPiPath(named)));
}

/**
 * Why this call needs a person, or null when it may run. Pi has no sandbox, so *allow* cannot mean more than
 * "inside the folder": a shell command can reach anything and a path outside is outside for reads and writes
 * alike, so both ask in every mode. Only a tool the guard does not know runs unasked in *allow*.
 */
function reasonToAsk(mode, toolName, input, cwd) {
  if (PATH_TOOLS.has(toolName)) {
    const leaves = leavingPath(cwd, input);
    return leaves ? { reason: 'path-leaves-folder', leaves } : null;
  }
  if (toolName === 'bash') return { reason: 'shell-command', leaves: null };
  return mode === 'allow' ? null : { reason: 'unknown-tool', leaves: null };
}

const quoted = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The shell command as it runs when the canvas's network switch is off: inside a bubblewrap of its own with a new,
 * empty network namespace (Pi itself keeps the network: it must reach its provider). A nested sandbox that cannot
 * be made fails the command: nothing runs with the network by mistake.
 */
export function withoutNetwork(bwrap, command) {
  return `exec ${quoted(bwrap)} --unshare-net --die-with-parent --dev-bind / / -- /bin/bash -c ${quoted(command)}`;
}

export default function weftGuard(pi) {
  const mode = process.env.WEFT_GUARD_MODE || 'ask';
  const timeout = Number(process.env.WEFT_GUARD_TIMEOUT_MS || 120000);
  // "Allow for this turn" is kept by Weft's gate, not here: the guard asks on every call, so Weft answers at once
  // and still records each call the turn allowed (the event log and the version list them all).

  const netCut = process.env.WEFT_SANDBOX_NET_CUT || '';
  // Rewritten only once allowed: the card shows the command the model wrote. Pi's own events carry it as written.
  const allowed = (event) => {
    if (netCut && event.toolName === 'bash' && typeof event.input?.command === 'string')
      event.input.command = withoutNetwork(netCut, event.input.command);
    return undefined;
  };

  pi.on('tool_call', async (event, ctx) => {
    const cwd = ctx.cwd || process.cwd();
    const ask = reasonToAsk(mode, event.toolName, event.input, cwd);
    if (!ask) return allowed(event);
    if (!ctx.hasUI) return { block: true, reason: 'Weft guard: nobody can be asked, so the call is denied.' };
    const title =
      PREFIX +
      JSON.stringify({
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        args: event.input,
        reason: ask.reason,
        leaves: ask.leaves,
        cwd,
      });
    let answer;
    try {
      answer = await ctx.ui.select(title, [ALLOW_ONCE, ALLOW_TURN, DENY], { timeout, signal: ctx.signal });
    } catch {
      answer = undefined;
    }
    if (answer === ALLOW_ONCE || answer === ALLOW_TURN) return allowed(event);
    const why = answer === DENY ? 'the person denied it' : 'no answer came in time';
    return { block: true, reason: `Weft guard: ${why}.` };
  });
}
