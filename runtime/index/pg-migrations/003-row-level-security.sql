-- Who may read what (issue 32.3). A person is granted projects; a project is a working-directory root (an absolute
-- path: that folder and everything below it, by each turn's own cwd) or a canvas (`canvas:<canvasId>`: its live
-- nodes' turns and materials). Rows of other projects are invisible to that person's database role.
-- The roles themselves are made by `weft db init` (roles belong to the server, not to one database): `weft_read`
-- (SELECT), `weft_write` (also INSERT, UPDATE, DELETE) and one login role per person, listed in `weft_people`.
-- The tables' owner (the admin who runs the migrations, and a single user's own database) is not subject to these
-- policies, so an index nobody shares reads exactly as before.

CREATE TABLE weft_people (
  role_name TEXT COLLATE "C" PRIMARY KEY,
  person TEXT COLLATE "C" NOT NULL UNIQUE
);

CREATE TABLE weft_grants (
  person TEXT COLLATE "C" NOT NULL REFERENCES weft_people(person) ON DELETE CASCADE,
  project TEXT COLLATE "C" NOT NULL
    CHECK (project = '/' OR (project LIKE '/%' AND project NOT LIKE '%/') OR project ~ '^canvas:[^#@]+$'),
  PRIMARY KEY (person, project)
);

-- Run as the reader (no SECURITY DEFINER, so current_user is the reader): the policy on weft_grants below lets it
-- see only its own grants, which is all this needs.
CREATE FUNCTION weft_may_read(cwd TEXT, turn_key TEXT) RETURNS BOOLEAN
  LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM public.weft_grants g JOIN public.weft_people p ON p.person = g.person
    WHERE p.role_name = current_user
      AND CASE
        WHEN g.project LIKE 'canvas:%' THEN starts_with(turn_key, g.project || '#')
        WHEN g.project = '/' THEN cwd IS NOT NULL AND starts_with(cwd, '/')
        ELSE cwd = g.project OR starts_with(cwd, g.project || '/')
      END
  )
$$;

ALTER TABLE turns ENABLE ROW LEVEL SECURITY;
CREATE POLICY turns_granted ON turns USING (weft_may_read(cwd, turn_key));

ALTER TABLE materials ENABLE ROW LEVEL SECURITY;
CREATE POLICY materials_granted ON materials USING (weft_may_read(cwd, turn_key));

-- Reading is scoped, writing is not: a person pushes all of their own work, whatever they may read back. (Without
-- this the policies above would also be every write's check.)
CREATE POLICY turns_insert ON turns FOR INSERT WITH CHECK (true);
CREATE POLICY materials_insert ON materials FOR INSERT WITH CHECK (true);

-- The rest follow the turns and materials they belong to (the subqueries see only rows the policies above allow).
ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
CREATE POLICY sessions_insert ON sessions FOR INSERT WITH CHECK (true);
CREATE POLICY sessions_granted ON sessions USING (EXISTS (SELECT 1 FROM turns t WHERE t.session_row = sessions.id));

ALTER TABLE sources ENABLE ROW LEVEL SECURITY;
CREATE POLICY sources_insert ON sources FOR INSERT WITH CHECK (true);
CREATE POLICY sources_granted ON sources USING (
  EXISTS (SELECT 1 FROM sessions s WHERE s.source_id = sources.id)
  OR EXISTS (SELECT 1 FROM materials m WHERE m.source_id = sources.id)
);

ALTER TABLE touches ENABLE ROW LEVEL SECURITY;
CREATE POLICY touches_insert ON touches FOR INSERT WITH CHECK (true);
CREATE POLICY touches_granted ON touches USING (EXISTS (SELECT 1 FROM turns t WHERE t.id = touches.turn_id));

ALTER TABLE urls ENABLE ROW LEVEL SECURITY;
CREATE POLICY urls_insert ON urls FOR INSERT WITH CHECK (true);
CREATE POLICY urls_granted ON urls USING (EXISTS (SELECT 1 FROM turns t WHERE t.id = urls.turn_id));

ALTER TABLE papers ENABLE ROW LEVEL SECURITY;
CREATE POLICY papers_insert ON papers FOR INSERT WITH CHECK (true);
CREATE POLICY papers_granted ON papers USING (EXISTS (SELECT 1 FROM turns t WHERE t.id = papers.turn_id));

ALTER TABLE cjk_texts ENABLE ROW LEVEL SECURITY;
CREATE POLICY cjk_texts_insert ON cjk_texts FOR INSERT WITH CHECK (true);
CREATE POLICY cjk_texts_granted ON cjk_texts USING (
  EXISTS (SELECT 1 FROM turns t WHERE t.id = cjk_texts.turn_id)
  OR EXISTS (SELECT 1 FROM materials m WHERE m.id = cjk_texts.material_id)
);

-- A person sees their own grants (`weft db grants`), not anyone else's.
ALTER TABLE weft_grants ENABLE ROW LEVEL SECURITY;
CREATE POLICY weft_grants_own ON weft_grants FOR SELECT USING (
  EXISTS (SELECT 1 FROM public.weft_people p WHERE p.person = weft_grants.person AND p.role_name = current_user)
);
