import type pg from 'pg';
import { fts5Words } from './fts5-words.ts';
import type { MachineIdentity } from './machine-identity.ts';
import type { IndexDatabase } from './open-index-database.ts';
import { CJK, MATERIAL, SESSION, SOURCE, TURN, TURN_CHILDREN, type Column, type Row } from './push-columns.ts';

/** Above this many turns a source goes table by table (`syncById`), so one statement's arrays stay small. */
export const FRESH_SOURCE_TURNS = 4000;

const ID: Column = ['id', 'bigint'];

/** One source's rows as one statement, and the rows it adds per table. */
export interface FreshSource {
  text: string;
  values: unknown[];
  added: Record<string, number>;
}

/**
 * A source the team index does not hold, as one statement that inserts all its rows (data-modifying CTEs: the
 * source, its sessions, turns and their touches, urls and papers, materials and CJK texts, each child joined to
 * its parent's new id by the local id), where table by table took ten round trips. Rows are numbered in local id
 * order, as `insertRows` numbers them. Null when the source has more turns than `FRESH_SOURCE_TURNS`. Built
 * apart from its sending, so a push builds the next source's while the server writes this one's.
 */
export function freshSourceStatement(
  sqlite: IndexDatabase,
  machine: MachineIdentity,
  generation: string,
  local: Row,
  /** False for a turn never sent (put aside here): its touches, links and CJK text stay with it. */
  keepTurn: (row: Row) => boolean = () => true,
): FreshSource | null {
  const id = local.id as number;
  const turnRows = (
    sqlite
      .prepare('SELECT t.* FROM turns t JOIN sessions s ON s.id = t.session_row WHERE s.source_id = ? ORDER BY t.id')
      .all(id) as Row[]
  ).filter(keepTurn);
  const kept = new Set(turnRows.map((row) => row.id as number));
  if (turnRows.length > FRESH_SOURCE_TURNS) return null;
  const sessions = sqlite.prepare('SELECT * FROM sessions WHERE source_id = ? ORDER BY id').all(id) as Row[];
  const turns = turnRows.map((row) => ({
    ...row,
    user_words: fts5Words(row.user_text as string),
    assistant_words: fts5Words(row.assistant_text as string),
  }));
  const children = TURN_CHILDREN.map(({ table, columns }) => ({
    table,
    columns,
    rows: (
      sqlite
        .prepare(
          `SELECT x.* FROM ${table} x JOIN turns t ON t.id = x.turn_id JOIN sessions s ON s.id = t.session_row
         WHERE s.source_id = ? ORDER BY x.rowid`,
        )
        .all(id) as Row[]
    ).filter((row) => kept.has(row.turn_id as number)),
  }));
  const materials = (sqlite.prepare('SELECT * FROM materials WHERE source_id = ? ORDER BY id').all(id) as Row[]).map(
    (row) => ({
      ...row,
      title_words: fts5Words(row.title as string),
      text_words: fts5Words(row.text as string),
    }),
  );
  const cjk = (
    sqlite
      .prepare(
        `SELECT c.* FROM cjk_texts c WHERE c.turn_id IN
         (SELECT t.id FROM turns t JOIN sessions s ON s.id = t.session_row WHERE s.source_id = ?)
       OR c.material_id IN (SELECT id FROM materials WHERE source_id = ?) ORDER BY c.id`,
      )
      .all(id, id) as Row[]
  ).filter((row) => row.turn_id === null || kept.has(row.turn_id as number));

  const values: unknown[] = [];
  const add = (value: unknown) => `$${values.push(value)}`;
  const names = (list: readonly Column[]) => list.map(([name]) => name).join(', ');
  const of = (list: readonly Column[]) => list.map(([name]) => `u.${name}`).join(', ');
  // One array per column, unnested in the rows' order (WITH ORDINALITY, then ORDER BY: ids follow local order).
  const unnested = (list: readonly Column[], rows: Row[]) =>
    `unnest(${list.map(([name, type]) => `${add(rows.map((row) => row[name] ?? null))}::${type}[]`).join(', ')})
       WITH ORDINALITY AS u(${names(list)}, ordinal)`;
  const words = (first: string, second: string): Column[] => [
    [first, 'text'],
    [second, 'text'],
  ];
  const m = add(machine.id);
  const source = `INSERT INTO sources (machine, person, generation, local_id, ${names(SOURCE)})
    VALUES (${m}, ${add(machine.person)}, ${add(generation)}, ${add(id)},
      ${SOURCE.map(([name, type]) => `${add(local[name] ?? null)}::${type}`).join(', ')}) RETURNING id`;
  const session = `INSERT INTO sessions (machine, local_id, source_id, ${names(SESSION)})
    SELECT ${m}, u.id, (SELECT id FROM source), ${of(SESSION)} FROM ${unnested([ID, ...SESSION], sessions)}
    ORDER BY u.ordinal RETURNING id, local_id`;
  const turnColumns = [...TURN, ...words('user_words', 'assistant_words')];
  const turn = `INSERT INTO turns (machine, local_id, session_row, ${names(turnColumns)})
    SELECT ${m}, u.id, s.id, ${of(turnColumns)}
    FROM ${unnested([ID, ['session_row', 'bigint'], ...turnColumns], turns)} JOIN session s ON s.local_id = u.session_row
    ORDER BY u.ordinal RETURNING id, local_id`;
  const child = ({ table, columns, rows }: (typeof children)[number]) =>
    `${table}_in AS (INSERT INTO ${table} (machine, turn_id, ${names(columns)})
      SELECT ${m}, t.id, ${of(columns)} FROM ${unnested([['turn_id', 'bigint'], ...columns], rows)}
      JOIN turn t ON t.local_id = u.turn_id ORDER BY u.ordinal)`;
  const materialColumns = [...MATERIAL, ...words('title_words', 'text_words')];
  const material = `INSERT INTO materials (machine, local_id, source_id, ${names(materialColumns)})
    SELECT ${m}, u.id, (SELECT id FROM source), ${of(materialColumns)}
    FROM ${unnested([ID, ...materialColumns], materials)} ORDER BY u.ordinal RETURNING id, local_id`;
  const cjkText = `INSERT INTO cjk_texts (machine, local_id, turn_id, material_id, ${names(CJK)})
    SELECT ${m}, u.id, t.id, mt.id, ${of(CJK)}
    FROM ${unnested([ID, ['turn_id', 'bigint'], ['material_id', 'bigint'], ...CJK], cjk)}
    LEFT JOIN turn t ON t.local_id = u.turn_id LEFT JOIN material mt ON mt.local_id = u.material_id
    ORDER BY u.ordinal`;
  const added: Record<string, number> = {
    sources: 1,
    sessions: sessions.length,
    turns: turns.length,
    materials: materials.length,
    cjk_texts: cjk.length,
  };
  for (const { table, rows } of children) added[table] = rows.length;
  return {
    // Every part is always there (an empty array inserts nothing), so the text is the same for every source.
    text: `WITH source AS (${source}), session AS (${session}), turn AS (${turn}),
      ${children.map(child).join(', ')}, material AS (${material}), cjk_in AS (${cjkText})
      SELECT id FROM source`,
    values,
    added,
  };
}

/** Sends `freshSourceStatement`'s statement (prepared once per connection); the rows added per table. */
export async function insertFreshSource(
  client: pg.ClientBase,
  statement: FreshSource,
): Promise<Record<string, number>> {
  await client.query({ name: 'weft_insert_fresh_source', text: statement.text, values: statement.values });
  return statement.added;
}
