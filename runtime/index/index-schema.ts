/**
 * The why index schema. Bump `INDEX_SCHEMA_VERSION` whenever a statement below changes:
 * an index with another version is rebuilt from the sources (it is a cache, never the only copy).
 */
export const INDEX_SCHEMA_VERSION = 3;

/**
 * Triggers keeping the external-content FTS5 tables in step with `turns` and `materials`. A fresh build
 * (written beside, swapped in) runs without them and rebuilds the FTS tables once at the end: per-row
 * trigger inserts cost about as much as every other write of a turn together.
 */
export const INDEX_TRIGGERS = `
CREATE TRIGGER turns_after_insert AFTER INSERT ON turns BEGIN
  INSERT INTO questions(rowid, user_text) VALUES (new.id, new.user_text);
  INSERT INTO answers(rowid, assistant_text) VALUES (new.id, new.assistant_text);
END;
CREATE TRIGGER turns_after_delete AFTER DELETE ON turns BEGIN
  INSERT INTO questions(questions, rowid, user_text) VALUES ('delete', old.id, old.user_text);
  INSERT INTO answers(answers, rowid, assistant_text) VALUES ('delete', old.id, old.assistant_text);
END;
CREATE TRIGGER turns_after_update AFTER UPDATE OF user_text, assistant_text ON turns BEGIN
  INSERT INTO questions(questions, rowid, user_text) VALUES ('delete', old.id, old.user_text);
  INSERT INTO answers(answers, rowid, assistant_text) VALUES ('delete', old.id, old.assistant_text);
  INSERT INTO questions(rowid, user_text) VALUES (new.id, new.user_text);
  INSERT INTO answers(rowid, assistant_text) VALUES (new.id, new.assistant_text);
END;
CREATE TRIGGER materials_after_insert AFTER INSERT ON materials BEGIN
  INSERT INTO materials_text(rowid, title, text) VALUES (new.id, new.title, new.text);
END;
CREATE TRIGGER materials_after_delete AFTER DELETE ON materials BEGIN
  INSERT INTO materials_text(materials_text, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
END;
CREATE TRIGGER cjk_texts_after_insert AFTER INSERT ON cjk_texts BEGIN
  INSERT INTO cjk_trigrams(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER cjk_texts_after_delete AFTER DELETE ON cjk_texts BEGIN
  INSERT INTO cjk_trigrams(cjk_trigrams, rowid, text) VALUES ('delete', old.id, old.text);
END;
`;

/** Triggers a fresh build drops while it writes and creates again (after an FTS rebuild) before the swap. */
export const INDEX_TRIGGER_NAMES = [
  'turns_after_insert',
  'turns_after_delete',
  'turns_after_update',
  'materials_after_insert',
  'materials_after_delete',
  'cjk_texts_after_insert',
  'cjk_texts_after_delete',
];

/** The FTS5 tables over external content, rebuilt from it after a fresh build. */
export const INDEX_FTS_TABLES = ['questions', 'answers', 'materials_text', 'cjk_trigrams'];

/** The word tables' tokenizer option; `fts5-words.ts` emulates exactly this tokenizer for PostgreSQL. */
export const WORD_TOKENIZER = "'unicode61'";

export const INDEX_SCHEMA = `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- One row per file read: session JSONL, memory file or canvas record.
CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,            -- 'session' | 'memory' | 'canvas'
  runner TEXT,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  bytes_read INTEGER NOT NULL,
  prefix_hash TEXT,
  full_reads INTEGER NOT NULL DEFAULT 0,
  append_reads INTEGER NOT NULL DEFAULT 0,
  last_read_from INTEGER NOT NULL DEFAULT 0,
  report TEXT,                   -- parse report of the last read (JSON)
  indexed_at INTEGER NOT NULL,
  archived_bytes INTEGER NOT NULL DEFAULT 0,  -- bytes of this file kept in $WEFT_HOME/archive
  deleted_at INTEGER             -- the file vanished at this time; its rows stay, read from the archive
);

-- The session accumulator's saved state (JSON), for resuming a file that grew. Kept apart from
-- \`sources\` so the stat pass every query makes scans small rows only.
CREATE TABLE source_states (
  source_id INTEGER PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
  state TEXT NOT NULL
);

CREATE TABLE sessions (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  runner TEXT NOT NULL,
  session_id TEXT NOT NULL,
  title TEXT NOT NULL,
  cwd TEXT,
  git_branch TEXT,
  started_at INTEGER,
  ended_at INTEGER,
  parent_session_id TEXT,
  parent_turn_key TEXT,
  is_subagent INTEGER NOT NULL,
  UNIQUE (source_id, session_id)
);
CREATE INDEX sessions_by_session_id ON sessions(session_id);

CREATE TABLE turns (
  id INTEGER PRIMARY KEY,
  turn_key TEXT NOT NULL UNIQUE,
  session_row INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  user_text TEXT NOT NULL,
  assistant_text TEXT NOT NULL,
  cwd TEXT,
  at INTEGER,
  model TEXT,
  steps TEXT NOT NULL,           -- tool steps (JSON array), for recall
  mirrors TEXT,                  -- a canvas copy of a session turn: that turn's key (why folds the copy into it)
  status TEXT                    -- how the turn ended when the runner marked it ('interrupted'…), else NULL
);
CREATE INDEX turns_by_session ON turns(session_row, number);

CREATE TABLE touches (
  turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  name TEXT NOT NULL,            -- last path segment, for bare-name lookups
  op TEXT NOT NULL
);
CREATE INDEX touches_by_path ON touches(path);
CREATE INDEX touches_by_name ON touches(name);
CREATE INDEX touches_by_turn ON touches(turn_id);

CREATE TABLE urls (
  turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  url TEXT NOT NULL
);
CREATE INDEX urls_by_url ON urls(url);
CREATE INDEX urls_by_turn ON urls(turn_id);

CREATE TABLE papers (
  turn_id INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,            -- 'arxiv' | 'doi'
  identifier TEXT NOT NULL
);
CREATE INDEX papers_by_identifier ON papers(kind, identifier);
CREATE INDEX papers_by_turn ON papers(turn_id);

CREATE TABLE materials (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,            -- 'memory' | 'canvas-material' | 'canvas-note'
  runner TEXT,
  session_id TEXT,               -- the canvas id for canvas rows; null for memory files
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  turn_key TEXT NOT NULL,
  cwd TEXT,
  at INTEGER
);
CREATE INDEX materials_by_source ON materials(source_id);

-- Phrase search: external-content FTS5 tables kept in step by triggers, so text is stored once.
CREATE VIRTUAL TABLE questions USING fts5(user_text, content='turns', content_rowid='id', tokenize=${WORD_TOKENIZER});
CREATE VIRTUAL TABLE answers USING fts5(assistant_text, content='turns', content_rowid='id', tokenize=${WORD_TOKENIZER});
CREATE VIRTUAL TABLE materials_text USING fts5(title, text, content='materials', content_rowid='id', tokenize=${WORD_TOKENIZER});

-- Texts holding CJK characters, again, for substring search: unicode61 makes a whole CJK run one token, so
-- 优化仓库 inside 请你优化仓库 is no word of its own. Only such texts are copied, so Latin text costs nothing here.
CREATE TABLE cjk_texts (
  id INTEGER PRIMARY KEY,
  turn_id INTEGER REFERENCES turns(id) ON DELETE CASCADE,
  material_id INTEGER REFERENCES materials(id) ON DELETE CASCADE,
  field TEXT NOT NULL,           -- 'question' | 'answer' | 'material'
  text TEXT NOT NULL
);
CREATE INDEX cjk_texts_by_turn ON cjk_texts(turn_id);
CREATE INDEX cjk_texts_by_material ON cjk_texts(material_id);
CREATE VIRTUAL TABLE cjk_trigrams USING fts5(text, content='cjk_texts', content_rowid='id', tokenize='trigram');
${INDEX_TRIGGERS}`;
