import { createHash } from 'node:crypto';
import type pg from 'pg';
import { DOSSIER_SECTIONS, type Dossier, type TopicRecord } from '../../protocol/index.ts';
import { withConnectedPerson } from './connected-person.ts';
import type { MachineIdentity } from './machine-identity.ts';

/** What a machine's memory sends to the team index: its topics and every kept version of its dossiers. */
export interface LocalMemory {
  /** `topics.json` as it is (null: no topics yet). */
  topics: TopicRecord | null;
  /** Every stored dossier version, of every topic. */
  dossiers: readonly Dossier[];
  /** A label's turn that is put aside: its label is not sent (`postgresReader`'s lookup). */
  turnPutAside(turnKey: string): boolean;
  /** A struck sentence (a `dossier-sentence` tombstone): never sent. */
  sentenceStruck(text: string): boolean;
}

export interface MemoryPushSummary {
  /** False when the team index already held exactly these rows from this machine. */
  changed: boolean;
  rows: { topics: number; topic_labels: number; dossier_versions: number; dossier_sentences: number };
}

type Rows = Record<string, unknown[][]>;

/** The rows `memory` is on the team index, in insert order; nothing put aside or struck among them. */
function memoryRows(memory: LocalMemory, machine: MachineIdentity): Rows {
  const { id, person } = machine;
  const rows: Rows = {
    topics: [],
    topic_labels: [],
    dossier_versions: [],
    dossier_sentences: [],
    dossier_citations: [],
  };
  for (const [position, topic] of (memory.topics?.topics ?? []).entries())
    rows.topics!.push([id, person, topic.id, position, topic.name, topic.createdAt]);
  for (const [position, label] of (memory.topics?.labels ?? []).entries())
    if (!memory.turnPutAside(label.turnKey))
      rows.topic_labels!.push([id, person, label.turnKey, position, JSON.stringify(label), label.topicIds]);
  for (const dossier of memory.dossiers) {
    const { topicId, version } = dossier;
    rows.dossier_versions!.push([id, person, topicId, version, dossier.writtenAt]);
    for (const section of DOSSIER_SECTIONS)
      for (const [position, sentence] of dossier.sections[section].entries()) {
        if (memory.sentenceStruck(sentence.text)) continue;
        const at = [id, person, topicId, version, section, position];
        rows.dossier_sentences!.push([...at, sentence.id, sentence.text, sentence.citations.length]);
        for (const [ordinal, turnKey] of sentence.citations.entries())
          rows.dossier_citations!.push([...at, ordinal, turnKey]);
      }
  }
  return rows;
}

const COLUMNS: Record<string, string> = {
  topics: 'machine:text, person:text, topic_id:text, position:integer, name:text, created_at:bigint',
  topic_labels: 'machine:text, person:text, turn_key:text, position:integer, label:text, topic_ids:text[]',
  dossier_versions: 'machine:text, person:text, topic_id:text, version:integer, written_at:bigint',
  dossier_sentences:
    'machine:text, person:text, topic_id:text, version:integer, section:text, position:integer, sentence_id:text, ' +
    'text:text, citation_count:integer',
  dossier_citations:
    'machine:text, person:text, topic_id:text, version:integer, section:text, position:integer, ordinal:integer, ' +
    'turn_key:text',
};

/**
 * `weft index --push`'s second part: this machine's topics and dossiers (their metadata rows; the archive's copies
 * stay here) replace what the team index held from this machine, in one transaction under a lock per machine, and
 * only when they changed (a digest of the rows is kept per machine): a re-push adds nothing, twice never. The
 * person's profile is not among them. Runs after the index push, which records the machine.
 */
export async function pushMemoryToPostgres(
  client: pg.ClientBase,
  pushing: MachineIdentity,
  memory: LocalMemory,
): Promise<MemoryPushSummary> {
  const machine = await withConnectedPerson(client, pushing);
  const rows = memoryRows(memory, machine);
  const digest = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  const summary: MemoryPushSummary = {
    changed: false,
    rows: { topics: 0, topic_labels: 0, dossier_versions: 0, dossier_sentences: 0 },
  };
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('weft-memory'), hashtext($1))", [machine.id]);
    const held = await client.query<{ digest: string }>('SELECT digest FROM memory_pushes WHERE machine = $1', [
      machine.id,
    ]);
    if (held.rows[0]?.digest !== digest) {
      // Versions first: their sentences and citations go with them (foreign keys cascade).
      for (const table of ['dossier_versions', 'topic_labels', 'topics'])
        await client.query(`DELETE FROM ${table} WHERE machine = $1`, [machine.id]);
      for (const [table, values] of Object.entries(rows)) {
        const spec = COLUMNS[table]!.split(', ').map((pair) => pair.split(':') as [string, string]);
        if (values.length === 0) continue;
        // An array column goes as JSON text (unnest would flatten an array of arrays).
        const array = (type: string) => type === 'text[]';
        await client.query(
          `INSERT INTO ${table} (${spec.map(([name]) => name).join(', ')})
           SELECT ${spec.map(([name, type]) => (array(type) ? `ARRAY(SELECT jsonb_array_elements_text(u.${name}::jsonb))` : `u.${name}`)).join(', ')}
           FROM unnest(${spec.map(([, type], at) => `$${at + 1}::${array(type) ? 'text' : type}[]`).join(', ')})
             AS u(${spec.map(([name]) => name).join(', ')})`,
          spec.map(([, type], at) => values.map((row) => (array(type) ? JSON.stringify(row[at]) : row[at]))),
        );
        if (table in summary.rows) summary.rows[table as keyof MemoryPushSummary['rows']] = values.length;
      }
      await client.query(
        `INSERT INTO memory_pushes (machine, digest, pushed_at) VALUES ($1, $2, $3)
         ON CONFLICT (machine) DO UPDATE SET digest = $2, pushed_at = $3`,
        [machine.id, digest, Date.now()],
      );
      summary.changed = true;
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
  return summary;
}
