-- Who may write what (issue 32.3): the server, not the pushing client, says whose a row is. A person's role (listed
-- in `weft_people`) reads, changes and deletes its own rows, reads what its grants allow (003, 004), and inserts
-- only rows of its own: a row's `person` is the role's person, and its machine is one that person holds. A machine
-- is claimed by the first person who pushes it (its `machines` row); only that person pushes under it after. Rows
-- of machine '' (copied before 002) and machines claimed by the admin for someone else stay the admin's to change.
-- The admin (the tables' owner) is not subject to any of this. `meta` stays writable by every writer: it holds
-- only the team's newest index time, which a push raises.

-- The connecting role's person; null for the admin and any role that is not a person's. The policies below call it
-- as `(SELECT weft_current_person())` and name the person's machines in an uncorrelated `IN (SELECT …)`: both are
-- then evaluated once per statement, where a function call per row (a function holding a query is never inlined)
-- cost a push and every read of a person's role tens of microseconds a row.
CREATE FUNCTION weft_current_person() RETURNS TEXT
  LANGUAGE sql STABLE AS $$
  SELECT person FROM public.weft_people WHERE role_name = current_user
$$;

-- Machines: everyone reads them (answers name a turn's machines); a person inserts, changes and deletes their own.
ALTER TABLE machines ENABLE ROW LEVEL SECURITY;
CREATE POLICY machines_read ON machines FOR SELECT USING (true);
CREATE POLICY machines_own_insert ON machines FOR INSERT WITH CHECK (person = (SELECT weft_current_person()));
CREATE POLICY machines_own_update ON machines FOR UPDATE
  USING (person = (SELECT weft_current_person())) WITH CHECK (person = (SELECT weft_current_person()));
CREATE POLICY machines_own_delete ON machines FOR DELETE USING (person = (SELECT weft_current_person()));

-- Every other table: the read-by-grant policy becomes SELECT only (without a FOR it also decided UPDATE and
-- DELETE), the open INSERT policy goes, and the owner's four policies come. A table with a `person` column checks
-- it too; the rest (the index's rows below a source) go by their machine.
DO $$
DECLARE
  tables TEXT[] := ARRAY['sources', 'sessions', 'turns', 'touches', 'urls', 'papers', 'materials', 'cjk_texts',
    'topics', 'topic_labels', 'dossier_versions', 'dossier_sentences', 'dossier_citations', 'memory_pushes'];
  t TEXT;
  granted TEXT;
  own TEXT;
  machine_own TEXT := 'machine IN (SELECT m.machine FROM machines m WHERE m.person = (SELECT weft_current_person()))';
BEGIN
  FOREACH t IN ARRAY tables LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    SELECT pg_get_expr(p.polqual, p.polrelid) INTO granted
      FROM pg_policy p WHERE p.polrelid = t::regclass AND p.polname = t || '_granted';
    IF granted IS NOT NULL THEN
      EXECUTE format('DROP POLICY %I ON %I', t || '_granted', t);
      EXECUTE format('CREATE POLICY %I ON %I FOR SELECT USING (%s)', t || '_granted', t, granted);
    END IF;
    EXECUTE format('DROP POLICY IF EXISTS %I ON %I', t || '_insert', t);
    own := CASE WHEN EXISTS (
        SELECT 1 FROM information_schema.columns c
        WHERE c.table_schema = 'public' AND c.table_name = t AND c.column_name = 'person')
      THEN '(person = (SELECT weft_current_person()) AND ' || machine_own || ')'
      ELSE machine_own END;
    EXECUTE format('CREATE POLICY %I ON %I FOR SELECT USING (%s)', t || '_own_read', t, own);
    EXECUTE format('CREATE POLICY %I ON %I FOR INSERT WITH CHECK (%s)', t || '_own_insert', t, own);
    EXECUTE format('CREATE POLICY %I ON %I FOR UPDATE USING (%s) WITH CHECK (%s)', t || '_own_update', t, own, own);
    EXECUTE format('CREATE POLICY %I ON %I FOR DELETE USING (%s)', t || '_own_delete', t, own);
  END LOOP;
END
$$;
