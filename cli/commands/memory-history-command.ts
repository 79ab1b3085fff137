import { randomUUID } from 'node:crypto';
import type { KnownAs, LineEnd, MemoryProfile, MemoryStateResponse } from '../../protocol/index.ts';
import { CliError } from '../cli-error.ts';
import type { ParsedCommand } from '../command-table.ts';
import { printJson } from '../format.ts';
import { liveServer } from '../live-server.ts';
import type { Terminal } from '../terminal.ts';

/** One version of a line as `weft memory history` prints it: both times, recorded and valid. */
export interface HistoryVersion {
  id: string;
  text: string;
  evidence: string;
  /** #29: how the line is known (core `lineKnownAs`): stated, inferred or reconstructed. */
  knownAs: KnownAs;
  span: string | null;
  canvasId: string | null;
  nodeId: string | null;
  /** When the line entered its document. */
  recordedAt: number;
  /** When the fact became true, and when a later statement superseded it (null: not superseded). */
  validFrom: number;
  validTo: number | null;
  ended: LineEnd | null;
}

/**
 * `weft memory history <line>` (issue 29.4): every version of a profile line — the lines it replaced and the ones
 * that replaced it, oldest first — each with when it was recorded, when it held (valid from–to) and how it is known
 * (#29: stated, inferred or reconstructed). The profile
 * comes from the running server when one answers for this home (what the app sees), else from the files.
 */
export async function runHistory(command: ParsedCommand, io: Terminal): Promise<number> {
  const lineId = command.positionals[1];
  if (!lineId) throw new CliError('usage', 'weft memory history needs a line id (see the Memory page or --json)');
  const [{ readServerFile, resolveWeftHome }, { MemoryStore, memoryDirectory }, core] = await Promise.all([
    import('../../runtime/fs/index.ts'),
    import('../../runtime/memory/index.ts'),
    import('../../src/core/memory/index.ts'),
  ]);
  const home = resolveWeftHome(io.env);
  const server = await liveServer(await readServerFile(home));
  let profile: MemoryProfile;
  if (server) {
    const response = await fetch(`${server.origin}/api/memory`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    if (!response.ok) throw new CliError('memory-unreadable', `the server answered HTTP ${response.status}`);
    profile = ((await response.json()) as MemoryStateResponse).profile;
  } else {
    const store = new MemoryStore({ directory: memoryDirectory(home), now: Date.now, newId: randomUUID });
    profile = (await store.read()).profile;
  }
  const found = core.findLine(profile, lineId);
  if (!found) throw new CliError('not-found', `there is no profile line ${lineId}`);
  const versions: HistoryVersion[] = core.lineHistory(profile, lineId).map((line) => {
    const validity = core.lineValidity(profile, line);
    return {
      id: line.id,
      text: line.text,
      evidence: line.evidence,
      knownAs: core.lineKnownAs(line),
      span: line.span,
      canvasId: line.origin.canvasId,
      nodeId: line.origin.nodeId,
      recordedAt: line.createdAt,
      validFrom: validity.from,
      validTo: validity.to,
      ended: line.ended,
    };
  });
  const source = server ? 'server' : 'files';
  if (command.flags.json) {
    printJson(io.out, { lineId, document: found.document, source, versions });
    return 0;
  }
  const when = (at: number) => new Date(at).toISOString();
  io.out(`${found.document} line ${lineId}: ${versions.length} version(s), oldest first\n`);
  for (const version of versions) {
    const mark = version.id === lineId ? '*' : ' ';
    const turn = version.canvasId ? `  turn: ${version.canvasId}/${version.nodeId ?? '?'}` : '';
    io.out(
      `${mark} ${version.id}  ${version.text}\n` +
        `    recorded at ${when(version.recordedAt)}  valid from ${when(version.validFrom)} ${validUntil(version)}\n` +
        `    ${endedText(version.ended)}  known as: ${version.knownAs} (${core.KNOWN_AS_WORDS[version.knownAs].words})` +
        `  evidence: ${version.evidence}${turn}\n`,
    );
  }
  return 0;
}

/** A deletion ends the record, not the fact's truth: such a line has no end of validity, and is not "now". */
function validUntil(version: HistoryVersion): string {
  if (version.validTo !== null) return `to ${new Date(version.validTo).toISOString()}`;
  return version.ended === null ? 'to now' : '(never superseded)';
}

function endedText(ended: LineEnd | null): string {
  if (ended === null) return 'current';
  const at = new Date(ended.at).toISOString();
  if (ended.reason === 'replaced') return `superseded by ${ended.by} (recorded ${at})`;
  return ended.reason === 'deleted' ? `deleted at ${at}` : `left out by an import at ${at}`;
}
