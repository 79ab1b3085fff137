-- Topics and dossiers on the team index (issue 32, part 1): the metadata rows of each machine's topics.json and
-- memory/dossiers.sqlite, pushed with the index (`push-memory-to-postgres.ts`), machine and person on every row. A
-- person's own profile never comes here. Struck dossier sentences and labels of put-aside turns are never pushed,
-- and readers filter them again by this person's tombstones. Keys are machine-scoped, as the index's are.
CREATE TABLE topics (
  machine TEXT COLLATE "C" NOT NULL REFERENCES machines(machine) ON DELETE CASCADE,
  person TEXT COLLATE "C" NOT NULL,
  topic_id TEXT COLLATE "C" NOT NULL,
  position INTEGER NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (machine, topic_id)
);

CREATE TABLE topic_labels (
  machine TEXT COLLATE "C" NOT NULL REFERENCES machines(machine) ON DELETE CASCADE,
  person TEXT COLLATE "C" NOT NULL,
  turn_key TEXT COLLATE "C" NOT NULL,
  position INTEGER NOT NULL,
  -- The label as topics.json holds it (turnKey, contentHash, topicIds, by, at, openingHash), JSON.
  label TEXT COLLATE "C" NOT NULL,
  topic_ids TEXT[] COLLATE "C" NOT NULL,
  PRIMARY KEY (machine, turn_key)
);
CREATE INDEX topic_labels_by_topic ON topic_labels USING GIN (topic_ids);

CREATE TABLE dossier_versions (
  machine TEXT COLLATE "C" NOT NULL REFERENCES machines(machine) ON DELETE CASCADE,
  person TEXT COLLATE "C" NOT NULL,
  topic_id TEXT COLLATE "C" NOT NULL,
  version INTEGER NOT NULL,
  written_at BIGINT NOT NULL,
  PRIMARY KEY (machine, topic_id, version)
);

CREATE TABLE dossier_sentences (
  machine TEXT COLLATE "C" NOT NULL,
  person TEXT COLLATE "C" NOT NULL,
  topic_id TEXT COLLATE "C" NOT NULL,
  version INTEGER NOT NULL,
  section TEXT COLLATE "C" NOT NULL,
  position INTEGER NOT NULL,
  sentence_id TEXT COLLATE "C" NOT NULL,
  text TEXT COLLATE "C" NOT NULL,
  -- How many citations it has: a reader sees the sentence only when it may read every one (the policy below).
  citation_count INTEGER NOT NULL,
  PRIMARY KEY (machine, topic_id, version, section, position),
  FOREIGN KEY (machine, topic_id, version) REFERENCES dossier_versions ON DELETE CASCADE
);

CREATE TABLE dossier_citations (
  machine TEXT COLLATE "C" NOT NULL,
  person TEXT COLLATE "C" NOT NULL,
  topic_id TEXT COLLATE "C" NOT NULL,
  version INTEGER NOT NULL,
  section TEXT COLLATE "C" NOT NULL,
  position INTEGER NOT NULL,
  ordinal INTEGER NOT NULL,
  turn_key TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (machine, topic_id, version, section, position, ordinal),
  FOREIGN KEY (machine, topic_id, version, section, position) REFERENCES dossier_sentences ON DELETE CASCADE
);

-- What each machine's last memory push held (a digest of the rows): a push of the same rows adds nothing.
CREATE TABLE memory_pushes (
  machine TEXT COLLATE "C" PRIMARY KEY REFERENCES machines(machine) ON DELETE CASCADE,
  digest TEXT COLLATE "C" NOT NULL,
  pushed_at BIGINT NOT NULL
);

-- A turn key a label or a citation names is readable when the turn is (the turns policy of 003 decides): a cited
-- canvas version (`canvas:c#n@v`) by its node's row (`canvas:c#n`).
-- ($1, not the parameter's name: inside the query a column of that name would win.)
CREATE FUNCTION weft_turn_readable(key TEXT) RETURNS BOOLEAN
  LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM public.turns t
    WHERE t.turn_key = CASE WHEN starts_with($1, 'canvas:') THEN split_part($1, '@', 1) ELSE $1 END
  )
$$;

-- Reading follows the turns (grants per project, 003); inserting is not scoped: a person pushes all their own work.
-- As in 003 the policies also bound what a person's role may delete (a push replacing rows it cannot read fails).
ALTER TABLE topic_labels ENABLE ROW LEVEL SECURITY;
CREATE POLICY topic_labels_granted ON topic_labels USING (weft_turn_readable(turn_key));
CREATE POLICY topic_labels_insert ON topic_labels FOR INSERT WITH CHECK (true);

-- A topic is readable through a label of it the reader may read.
ALTER TABLE topics ENABLE ROW LEVEL SECURITY;
CREATE POLICY topics_granted ON topics USING (
  EXISTS (SELECT 1 FROM topic_labels l WHERE l.machine = topics.machine AND topics.topic_id = ANY (l.topic_ids))
);
CREATE POLICY topics_insert ON topics FOR INSERT WITH CHECK (true);

ALTER TABLE dossier_versions ENABLE ROW LEVEL SECURITY;
CREATE POLICY dossier_versions_granted ON dossier_versions USING (
  EXISTS (SELECT 1 FROM topics t WHERE t.machine = dossier_versions.machine AND t.topic_id = dossier_versions.topic_id)
);
CREATE POLICY dossier_versions_insert ON dossier_versions FOR INSERT WITH CHECK (true);

ALTER TABLE dossier_citations ENABLE ROW LEVEL SECURITY;
CREATE POLICY dossier_citations_granted ON dossier_citations USING (weft_turn_readable(turn_key));
CREATE POLICY dossier_citations_insert ON dossier_citations FOR INSERT WITH CHECK (true);

-- A sentence only when every turn it cites is readable (the subquery sees only readable citations).
ALTER TABLE dossier_sentences ENABLE ROW LEVEL SECURITY;
CREATE POLICY dossier_sentences_granted ON dossier_sentences USING (
  citation_count = (
    SELECT count(*) FROM dossier_citations c
    WHERE c.machine = dossier_sentences.machine AND c.topic_id = dossier_sentences.topic_id
      AND c.version = dossier_sentences.version AND c.section = dossier_sentences.section
      AND c.position = dossier_sentences.position
  )
);
CREATE POLICY dossier_sentences_insert ON dossier_sentences FOR INSERT WITH CHECK (true);

-- A database `weft db init` already set up: its groups get the new tables too (init grants on every table).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'weft_read') THEN
    GRANT SELECT ON topics, topic_labels, dossier_versions, dossier_sentences, dossier_citations, memory_pushes
      TO weft_read;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'weft_write') THEN
    GRANT INSERT, UPDATE, DELETE
      ON topics, topic_labels, dossier_versions, dossier_sentences, dossier_citations, memory_pushes TO weft_write;
  END IF;
END
$$;
