import {
  DOSSIER_SECTIONS,
  type Dossier,
  type DossierSentence,
  type TopicLabel,
  type TopicRecord,
} from '../../protocol/index.ts';
import { isPutAside, type PutAsideKind, type PutAsides } from '../../src/core/index.ts';
import { turnKnownAs } from '../../src/core/recall/index.ts';
import { IndexError } from './index-error.ts';
import type { MachineLabel } from './machine-identity.ts';
import type { RecalledTurn, RecallRequest } from './recall-query.ts';
import { MAXIMUM_TEXT_CHARACTERS } from './session-rows.ts';
import { canvasKeyParts } from './turn-key-sources.ts';

/** What a labelled session turn shows (`weft topics labels`): its runner, its session's title, when, the question's start. */
export interface SessionTurnRow {
  runner: string;
  title: string;
  at: number | null;
  question: string;
}

/** One query on the team index (row-level security applies: a role reads only what it was granted). */
export type TeamRows = <Row>(sql: string, values?: unknown[]) => Promise<Row[]>;
/** Hits with the machines holding their turn, once the team index holds several (`PostgresIndex`'s rule). */
export type MachineLabeller = <Hit extends { turnKey: string }>(
  hits: Hit[],
) => Promise<(Hit & { machines?: MachineLabel[] })[]>;

/** A recalled turn from the team index: SQLite's JSON, plus the machines that hold it when there are several. */
export type TeamRecalledTurn = RecalledTurn & { machines?: MachineLabel[] };

type RecallRow = Omit<RecalledTurn, 'steps' | 'knownAs' | 'completeness'> & { steps: string };

const COLUMNS = `s.runner, s.session_id AS "sessionId", s.title AS "sessionTitle", t.number AS turn,
    t.turn_key AS "turnKey", t.cwd, t.at, t.model, t.status, t.user_text AS question, t.assistant_text AS answer,
    t.steps, src.path AS "sourcePath", src.deleted_at IS NOT NULL AS "sourceDeleted"`;
const FROM = `FROM turns t JOIN sessions s ON s.id = t.session_row JOIN sources src ON src.id = s.source_id`;
const SELECT = `SELECT ${COLUMNS} ${FROM}`;

/**
 * The team index's memory reads beside the why index (issue 32): `recall` of a turn any machine pushed, and which
 * rows' own words are put aside on this machine (a put-aside is by content, whatever machine pushed the words).
 */
export class PostgresMemory {
  constructor(
    private readonly rows: TeamRows,
    private readonly label: MachineLabeller,
  ) {}

  /**
   * One turn as `recallTurn` reads it from SQLite: by key, or by session id (a unique prefix is enough) and turn
   * number. A turn several machines hold (a synced session folder) is the one pushed first, naming them all.
   */
  async recall(request: RecallRequest): Promise<TeamRecalledTurn> {
    let found: RecallRow | undefined;
    if ('turnKey' in request) {
      [found] = await this.rows<RecallRow>(`${SELECT} WHERE t.turn_key = $1 ORDER BY t.id LIMIT 1`, [request.turnKey]);
      if (!found) throw new IndexError('turn-not-found', `no turn ${request.turnKey} in the index`);
    } else {
      const exact = await this.rows<RecallRow>(
        `${SELECT} WHERE s.session_id = $1 AND t.number = $2 ORDER BY t.id LIMIT 1`,
        [request.sessionId, request.turn],
      );
      // Prefix candidates: one row per session id is enough to tell a unique prefix from an ambiguous one.
      const rows =
        exact.length > 0
          ? exact
          : await this.rows<RecallRow>(
              `SELECT DISTINCT ON (s.session_id) ${COLUMNS} ${FROM}
               WHERE starts_with(s.session_id, $1) AND t.number = $2 ORDER BY s.session_id, t.id LIMIT 2`,
              [request.sessionId, request.turn],
            );
      if (rows.length === 0)
        throw new IndexError('turn-not-found', `no turn ${request.turn} in session ${request.sessionId}`);
      if (rows.length > 1)
        throw new IndexError('turn-not-found', `session id ${request.sessionId} is ambiguous; give more of it`);
      found = rows[0];
    }
    const row = found!;
    // The stored text is whole up to the cap: a text at the cap was cut there.
    const clipped = row.question.length >= MAXIMUM_TEXT_CHARACTERS || row.answer.length >= MAXIMUM_TEXT_CHARACTERS;
    const turn: RecalledTurn = {
      ...row,
      steps: JSON.parse(row.steps) as unknown[],
      ...turnKnownAs(row.status, clipped),
    };
    return (await this.label([turn]))[0]!;
  }

  /**
   * The keys among `turnKeys` whose own question on the team index is put aside by this person's tombstones
   * (core `isPutAside`): a session turn's words as a session turn, a canvas mirror's as the session turn it
   * mirrors, a canvas question's as a canvas turn or an imported message (the row does not say which it was).
   */
  async putAsideKeys(turnKeys: readonly string[], putAsides: PutAsides): Promise<Set<string>> {
    const leftOut = new Set<string>();
    if (putAsides.size === 0 || turnKeys.length === 0) return leftOut;
    for (const row of await this.rows<{ turnKey: string; text: string; mirrors: string | null }>(
      'SELECT turn_key AS "turnKey", user_text AS text, mirrors FROM turns WHERE turn_key = ANY($1)',
      [[...new Set(turnKeys)]],
    )) {
      const kinds: PutAsideKind[] =
        canvasKeyParts(row.turnKey) && row.mirrors === null ? ['canvas-turn', 'imported-message'] : ['session-turn'];
      if (kinds.some((kind) => isPutAside(putAsides, kind, row.text))) leftOut.add(row.turnKey);
    }
    return leftOut;
  }

  /**
   * The topics and labels every machine pushed (`push-memory-to-postgres.ts`), as one `topics.json` would hold
   * them: machine by machine in the order they first pushed, each in its own order. Row-level security leaves out
   * labels of turns the reader may not read, and topics with no label left.
   */
  async topics(): Promise<TopicRecord> {
    const order = 'JOIN machines m ON m.machine = x.machine ORDER BY m.first_push_at, x.machine, x.position';
    const topics = await this.rows<{ id: string; name: string; createdAt: number }>(
      `SELECT x.topic_id AS id, x.name, x.created_at AS "createdAt" FROM topics x ${order}`,
    );
    const labels = await this.rows<{ label: string }>(`SELECT x.label FROM topic_labels x ${order}`);
    return {
      format: 'weft.topics',
      topics,
      labels: labels.map((row) => JSON.parse(row.label) as TopicLabel),
    };
  }

  /** Each topic with a dossier on the team index, and its newest version. */
  async dossierTopics(): Promise<{ topicId: string; version: number }[]> {
    return this.rows(
      'SELECT topic_id AS "topicId", max(version) AS version FROM dossier_versions GROUP BY topic_id ORDER BY topic_id',
    );
  }

  /**
   * A topic's dossier versions, oldest first, rebuilt from their sentence rows (struck sentences were never pushed;
   * a sentence citing a turn the reader may not read is not readable either). Machines whose topics share an id
   * each hold their own version n: it is read from one of them, the first by machine id, sentences and all.
   */
  async dossierVersions(topicId: string): Promise<Dossier[]> {
    const chosen = `SELECT DISTINCT ON (version) version, machine, written_at FROM dossier_versions
       WHERE topic_id = $1 ORDER BY version, machine`;
    const versions = await this.rows<{ version: number; writtenAt: number }>(
      `SELECT version, written_at AS "writtenAt" FROM (${chosen}) v ORDER BY version`,
      [topicId],
    );
    const sentences = await this.rows<{
      version: number;
      section: (typeof DOSSIER_SECTIONS)[number];
      id: string;
      text: string;
      citations: string[];
    }>(
      `SELECT s.version, s.section, s.sentence_id AS id, s.text,
         ARRAY(SELECT c.turn_key FROM dossier_citations c WHERE c.machine = s.machine AND c.topic_id = s.topic_id
               AND c.version = s.version AND c.section = s.section AND c.position = s.position ORDER BY c.ordinal)
           AS citations
       FROM dossier_sentences s JOIN (${chosen}) v ON v.version = s.version AND v.machine = s.machine
       WHERE s.topic_id = $1 ORDER BY s.version, s.position`,
      [topicId],
    );
    return versions.map(({ version, writtenAt }) => {
      const sections = Object.fromEntries(DOSSIER_SECTIONS.map((section) => [section, [] as DossierSentence[]]));
      for (const sentence of sentences)
        if (sentence.version === version)
          sections[sentence.section]!.push({ id: sentence.id, text: sentence.text, citations: sentence.citations });
      return {
        format: 'weft.dossier',
        topicId,
        version,
        writtenAt,
        sections: sections as Dossier['sections'],
      };
    });
  }

  /**
   * The session turns among `turnKeys` as `weft topics labels` shows them (`labelledTurns`' `sessionTurns`): a turn
   * several machines hold is the one pushed first, as `recall` reads it.
   */
  async sessionTurns(turnKeys: readonly string[]): Promise<Map<string, SessionTurnRow>> {
    const rows = await this.rows<SessionTurnRow & { turnKey: string }>(
      `SELECT DISTINCT ON (t.turn_key) t.turn_key AS "turnKey", s.runner, s.title, t.at,
         substr(t.user_text, 1, 2000) AS question
       FROM turns t JOIN sessions s ON s.id = t.session_row
       WHERE t.turn_key = ANY($1) ORDER BY t.turn_key, t.id`,
      [[...new Set(turnKeys)]],
    );
    return new Map(rows.map(({ turnKey, ...row }) => [turnKey, row]));
  }

  /** The keys whose turn the team index holds (a cited canvas version by its node's row), as this role reads. */
  async heldTurnKeys(turnKeys: readonly string[]): Promise<Set<string>> {
    const rowKey = (key: string) => (canvasKeyParts(key) ? key.replace(/@[^@#]+$/, '') : key);
    const held = new Set(
      (
        await this.rows<{ turnKey: string }>(
          'SELECT DISTINCT turn_key AS "turnKey" FROM turns WHERE turn_key = ANY($1)',
          [[...new Set(turnKeys.map(rowKey))]],
        )
      ).map((row) => row.turnKey),
    );
    return new Set(turnKeys.filter((key) => held.has(rowKey(key))));
  }
}
