-- A person's role reads the team index fast: `weft_may_read(cwd, turn_key)` (003) ran its grants query once per
-- row (a function holding a query is never inlined), about 7 µs a row, so counting 100,000 turns took half a second.
-- The reader's grants now become two anchored regular expressions, built once per statement (each called as
-- `(SELECT …)`, an init-plan), and each row is only matched against them. Same reading as 003: a canvas by the
-- turn key's `canvas:<id>#` prefix, '/' any absolute cwd, a folder itself or anything below it. No grant of a kind
-- gives NULL, which matches nothing.

-- Every character a regular expression would read as an operator is escaped; the rest of a path stands for itself.
CREATE FUNCTION weft_regex_literal(text TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(text, '([.^$*+?()\[\]{}|\\])', '\\\1', 'g')
$$;

-- The policies pass `current_user`, run as the reader: the policy on weft_grants lets it see only its own grants,
-- whatever role it names.
CREATE FUNCTION weft_granted_cwds(reader TEXT) RETURNS TEXT
  LANGUAGE sql STABLE AS $$
  SELECT '^(' || string_agg(
      CASE WHEN g.project = '/' THEN '/' ELSE public.weft_regex_literal(g.project) || '(/|$)' END, '|') || ')'
  FROM public.weft_grants g JOIN public.weft_people p ON p.person = g.person
  WHERE p.role_name = reader AND g.project NOT LIKE 'canvas:%'
$$;

CREATE FUNCTION weft_granted_canvases(reader TEXT) RETURNS TEXT
  LANGUAGE sql STABLE AS $$
  SELECT '^(' || string_agg(public.weft_regex_literal(g.project), '|') || ')#'
  FROM public.weft_grants g JOIN public.weft_people p ON p.person = g.person
  WHERE p.role_name = reader AND g.project LIKE 'canvas:%'
$$;

DROP POLICY turns_granted ON turns;
CREATE POLICY turns_granted ON turns FOR SELECT
  USING (cwd ~ (SELECT weft_granted_cwds(current_user)) OR turn_key ~ (SELECT weft_granted_canvases(current_user)));
DROP POLICY materials_granted ON materials;
CREATE POLICY materials_granted ON materials FOR SELECT
  USING (cwd ~ (SELECT weft_granted_cwds(current_user)) OR turn_key ~ (SELECT weft_granted_canvases(current_user)));

-- One way to say who may read what.
DROP FUNCTION weft_may_read(TEXT, TEXT);

-- find for a person's role. Its phrase tests (`@>` over word lists, LIKE) are not leakproof, so under the policies
-- PostgreSQL must test every row's policy before them and cannot use the word-list indexes (005): every turn was
-- read. This function runs as the tables' owner (not subject to the policies) the same indexed query find runs for
-- the owner, and applies the same reading rule itself, for the person logged in (`session_user`): the turns their
-- grants allow or on a machine of theirs (006). It answers ids only; the caller reads those rows under the policies.
-- `field` is a turns column of words; `base`, `above`, `below` find's cwd filter (all null for none).
CREATE FUNCTION weft_find_turns(field TEXT, words TEXT, pattern TEXT, base TEXT, above TEXT, below TEXT, lim INT)
  RETURNS SETOF BIGINT
  LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  cwds TEXT := weft_granted_cwds(session_user);
  canvases TEXT := weft_granted_canvases(session_user);
  person TEXT := (SELECT p.person FROM weft_people p WHERE p.role_name = session_user);
BEGIN
  IF field NOT IN ('user_words', 'assistant_words') THEN
    RAISE EXCEPTION 'weft_find_turns: no column of words %', field;
  END IF;
  RETURN QUERY EXECUTE format(
    'SELECT t.id FROM turns t
     WHERE weft_words(t.%1$I) @> weft_words($1) AND t.%1$I LIKE $2
       AND ($4 IS NULL OR t.cwd = $4 OR (t.cwd > $5 AND t.cwd < $6))
       AND (t.cwd ~ $7 OR t.turn_key ~ $8 OR t.machine IN (SELECT m.machine FROM machines m WHERE m.person = $9))
     ORDER BY t.id DESC LIMIT $3', field)
    USING words, pattern, lim, base, above, below, cwds, canvases, person;
END
$$;
REVOKE ALL ON FUNCTION weft_find_turns(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, INT) FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'weft_read') THEN
    GRANT EXECUTE ON FUNCTION weft_find_turns(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, INT) TO weft_read;
  END IF;
END
$$;
