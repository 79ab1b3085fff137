export type Column = readonly [name: string, type: string];
export type Row = Record<string, unknown>;

export const columns = (spec: string): Column[] =>
  spec.split(',').map((pair) => pair.trim().split(':') as unknown as Column);

/**
 * The columns a push writes, each with its PostgreSQL array type (`id` is the server's; see 002-machines.sql): one
 * list for `push-index-to-postgres.ts` and `insert-fresh-source.ts`.
 */
export const SOURCE = columns(
  'path:text, kind:text, runner:text, size:bigint, mtime_ms:float8, bytes_read:bigint, prefix_hash:text, ' +
    'full_reads:integer, append_reads:integer, last_read_from:bigint, report:text, indexed_at:bigint, ' +
    'archived_bytes:bigint, deleted_at:bigint',
);
export const SESSION = columns(
  'runner:text, session_id:text, title:text, cwd:text, git_branch:text, started_at:bigint, ended_at:bigint, ' +
    'parent_session_id:text, parent_turn_key:text, is_subagent:integer',
);
export const TURN = columns(
  'turn_key:text, number:integer, user_text:text, assistant_text:text, cwd:text, at:bigint, model:text, ' +
    'steps:text, mirrors:text, status:text',
);
export const MATERIAL = columns(
  'kind:text, runner:text, session_id:text, title:text, text:text, turn_key:text, cwd:text, at:bigint',
);
export const CJK = columns('field:text, text:text');
export const TURN_CHILDREN: readonly { table: string; columns: Column[] }[] = [
  { table: 'touches', columns: columns('path:text, name:text, op:text') },
  { table: 'urls', columns: columns('url:text') },
  { table: 'papers', columns: columns('kind:text, identifier:text') },
];
