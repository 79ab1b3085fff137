-- The why index on PostgreSQL: the tables of the SQLite index (index-schema.ts), same ids, same columns, plus each
-- text's FTS5 words (fts5-words.ts: folded, space-separated, a space at each end) so `find` matches a phrase with
-- LIKE '% word word %' exactly where FTS5 does. pg_trgm GIN indexes serve those LIKEs; the LIKE itself is the
-- verifying filter (a trigram hit is only a candidate). Every text is COLLATE "C", whatever the database's locale:
-- paths compare byte by byte (the range scans below a folder rely on it) and lower() folds ASCII only, as SQLite's.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE meta (
  key TEXT COLLATE "C" PRIMARY KEY,
  value TEXT COLLATE "C" NOT NULL
);

CREATE TABLE sources (
  id BIGINT PRIMARY KEY,
  path TEXT COLLATE "C" NOT NULL UNIQUE,
  kind TEXT COLLATE "C" NOT NULL,
  runner TEXT COLLATE "C",
  size BIGINT NOT NULL,
  mtime_ms DOUBLE PRECISION NOT NULL,
  bytes_read BIGINT NOT NULL,
  prefix_hash TEXT COLLATE "C",
  full_reads INTEGER NOT NULL DEFAULT 0,
  append_reads INTEGER NOT NULL DEFAULT 0,
  last_read_from BIGINT NOT NULL DEFAULT 0,
  report TEXT COLLATE "C",
  indexed_at BIGINT NOT NULL,
  archived_bytes BIGINT NOT NULL DEFAULT 0,
  deleted_at BIGINT
);

CREATE TABLE sessions (
  id BIGINT PRIMARY KEY,
  source_id BIGINT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  runner TEXT COLLATE "C" NOT NULL,
  session_id TEXT COLLATE "C" NOT NULL,
  title TEXT COLLATE "C" NOT NULL,
  cwd TEXT COLLATE "C",
  git_branch TEXT COLLATE "C",
  started_at BIGINT,
  ended_at BIGINT,
  parent_session_id TEXT COLLATE "C",
  parent_turn_key TEXT COLLATE "C",
  is_subagent INTEGER NOT NULL,
  UNIQUE (source_id, session_id)
);
CREATE INDEX sessions_by_source ON sessions(source_id);
CREATE INDEX sessions_by_session_id ON sessions(session_id);

CREATE TABLE turns (
  id BIGINT PRIMARY KEY,
  turn_key TEXT COLLATE "C" NOT NULL UNIQUE,
  session_row BIGINT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  user_text TEXT COLLATE "C" NOT NULL,
  assistant_text TEXT COLLATE "C" NOT NULL,
  cwd TEXT COLLATE "C",
  at BIGINT,
  model TEXT COLLATE "C",
  steps TEXT COLLATE "C" NOT NULL,
  mirrors TEXT COLLATE "C",
  status TEXT COLLATE "C",
  user_words TEXT COLLATE "C" NOT NULL,
  assistant_words TEXT COLLATE "C" NOT NULL
);
CREATE INDEX turns_by_session ON turns(session_row, number);
CREATE INDEX turns_user_words ON turns USING GIN (user_words gin_trgm_ops);
CREATE INDEX turns_assistant_words ON turns USING GIN (assistant_words gin_trgm_ops);

CREATE TABLE touches (
  turn_id BIGINT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  path TEXT COLLATE "C" NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  op TEXT COLLATE "C" NOT NULL
);
CREATE INDEX touches_by_path ON touches(path);
CREATE INDEX touches_by_name ON touches(name);
CREATE INDEX touches_by_turn ON touches(turn_id);

CREATE TABLE urls (
  turn_id BIGINT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  url TEXT COLLATE "C" NOT NULL
);
CREATE INDEX urls_by_url ON urls(url);
CREATE INDEX urls_by_turn ON urls(turn_id);

CREATE TABLE papers (
  turn_id BIGINT NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  kind TEXT COLLATE "C" NOT NULL,
  identifier TEXT COLLATE "C" NOT NULL
);
CREATE INDEX papers_by_identifier ON papers(kind, identifier);
CREATE INDEX papers_by_turn ON papers(turn_id);

CREATE TABLE materials (
  id BIGINT PRIMARY KEY,
  source_id BIGINT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  kind TEXT COLLATE "C" NOT NULL,
  runner TEXT COLLATE "C",
  session_id TEXT COLLATE "C",
  title TEXT COLLATE "C" NOT NULL,
  text TEXT COLLATE "C" NOT NULL,
  turn_key TEXT COLLATE "C" NOT NULL,
  cwd TEXT COLLATE "C",
  at BIGINT,
  title_words TEXT COLLATE "C" NOT NULL,
  text_words TEXT COLLATE "C" NOT NULL
);
CREATE INDEX materials_by_source ON materials(source_id);
CREATE INDEX materials_title_words ON materials USING GIN (title_words gin_trgm_ops);
CREATE INDEX materials_text_words ON materials USING GIN (text_words gin_trgm_ops);

-- Texts holding CJK characters, for substring search inside CJK runs (cjk-find.ts).
CREATE TABLE cjk_texts (
  id BIGINT PRIMARY KEY,
  turn_id BIGINT REFERENCES turns(id) ON DELETE CASCADE,
  material_id BIGINT REFERENCES materials(id) ON DELETE CASCADE,
  field TEXT COLLATE "C" NOT NULL,
  text TEXT COLLATE "C" NOT NULL
);
CREATE INDEX cjk_texts_by_turn ON cjk_texts(turn_id);
CREATE INDEX cjk_texts_by_material ON cjk_texts(material_id);
CREATE INDEX cjk_texts_lower ON cjk_texts USING GIN (lower(text) gin_trgm_ops);
