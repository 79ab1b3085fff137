import type { CanvasDocument, LabelledTurn, TopicRecord } from '../../protocol/index.ts';
import { isPutAside, type PutAsides } from '../../src/core/index.ts';
import { redactCredentials } from '../../src/core/recall/index.ts';
import type { CanvasStore } from '../fs/index.ts';
import { turnKeySources, type IndexDatabase, type SessionTurnRow, type TurnKeySources } from '../index/index.ts';

const CANVAS_KEY = /^canvas:(.+)#([^#@]+)@([^#@]+)$/;
/** The question's first line is cut to this many characters: enough to recognise the turn. */
const OPENING_LINE_CHARS = 160;

export interface LabelledTurnSources {
  /** The why index; null when there is none (then no session turn is found). */
  database: IndexDatabase | null;
  canvases: Pick<CanvasStore, 'read'>;
  /** The tombstones in force (issue 29.2): a turn whose content is put aside is listed as not found. */
  putAsides?: PutAsides;
  /**
   * Where session turns are read instead of `database`: a team's index (issue 32), keyed by turn key. Canvas turns
   * are still decided by this machine's canvas records and index.
   */
  sessionTurns?: (turnKeys: string[]) => Promise<Map<string, SessionTurnRow>>;
}

function openingLine(question: string): string {
  const line = redactCredentials(question).text.trim().split('\n', 1)[0] ?? '';
  const characters = Array.from(line);
  return characters.length <= OPENING_LINE_CHARS ? line : `${characters.slice(0, OPENING_LINE_CHARS).join('')}…`;
}

function sessionRunner(turnKey: string): string {
  return /^([a-z-]+):/.exec(turnKey)?.[1] ?? 'session';
}

/**
 * The turns labelled with a topic (C15), newest first, for the person to check and remove: where each is from
 * (runner, session or canvas name, date), its opening line, and whether the judge or a name match labelled it. A
 * turn no longer found (an archived or deleted node, a session gone from the index) is still listed, `found` false.
 */
export async function labelledTurns(
  record: TopicRecord,
  topicId: string,
  sources: LabelledTurnSources,
): Promise<LabelledTurn[]> {
  const labels = record.labels.filter((label) => label.topicIds.includes(topicId));
  const documents = new Map<string, CanvasDocument | null>();
  // Whether a canvas turn is still alive is `turnKeySources`' answer (as for dossiers and recall), per canvas.
  const alive = new Map<string, TurnKeySources>();
  const sessionKeys = labels.map((label) => label.turnKey).filter((key) => !CANVAS_KEY.test(key));
  const rows = sources.sessionTurns
    ? await sources.sessionTurns(sessionKeys)
    : sessionTurnRows(sources.database, sessionKeys);
  const turns: LabelledTurn[] = [];
  for (const label of labels) {
    const base = { turnKey: label.turnKey, by: label.by };
    const canvas = CANVAS_KEY.exec(label.turnKey);
    if (!canvas) {
      const row = rows.get(label.turnKey);
      turns.push(
        row && !isPutAside(sources.putAsides ?? new Set(), 'session-turn', row.question)
          ? {
              ...base,
              source: 'session',
              runner: row.runner,
              title: row.title,
              at: row.at,
              opening: openingLine(row.question),
              found: true,
            }
          : {
              ...base,
              source: 'session',
              runner: sessionRunner(label.turnKey),
              title: null,
              at: null,
              opening: '',
              found: false,
            },
      );
      continue;
    }
    const [, canvasId, nodeId, versionId] = canvas as unknown as [string, string, string, string];
    if (!documents.has(canvasId))
      documents.set(canvasId, (await sources.canvases.read(canvasId).catch(() => null))?.document ?? null);
    const document = documents.get(canvasId);
    if (document && !alive.has(canvasId))
      alive.set(canvasId, turnKeySources(sources.database, [document], sources.putAsides));
    const node = document?.nodes.find((candidate) => candidate.id === nodeId);
    const version =
      node?.kind === 'question' && alive.get(canvasId)?.gone(label.turnKey) === false
        ? node.versions.find((candidate) => candidate.id === versionId)
        : undefined;
    turns.push(
      document && version
        ? {
            ...base,
            source: 'canvas',
            runner: 'canvas',
            title: document.canvas.name,
            at: version.createdAt,
            opening: openingLine(version.question),
            found: true,
          }
        : {
            ...base,
            source: 'canvas',
            runner: 'canvas',
            title: document?.canvas.name ?? null,
            at: null,
            opening: '',
            found: false,
          },
    );
  }
  return turns.sort((left, right) => (right.at ?? -1) - (left.at ?? -1) || left.turnKey.localeCompare(right.turnKey));
}

/** The session turns among `turnKeys` this machine's index holds. */
function sessionTurnRows(database: IndexDatabase | null, turnKeys: string[]): Map<string, SessionTurnRow> {
  const select = database?.prepare(
    `SELECT s.runner AS runner, s.title AS title, t.at AS at, substr(t.user_text, 1, 2000) AS question
     FROM turns t JOIN sessions s ON s.id = t.session_row WHERE t.turn_key = ?`,
  );
  const rows = new Map<string, SessionTurnRow>();
  for (const key of turnKeys) {
    const row = select?.get(key) as SessionTurnRow | undefined;
    if (row) rows.set(key, row);
  }
  return rows;
}
