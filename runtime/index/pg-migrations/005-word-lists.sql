-- find on the 1 GB corpus (issue 32, benchmark): a phrase is always whole words (`LIKE '% word word %'` over the
-- `*_words` columns, `fts5-words.ts`), so a row holding it holds each of its words. A GIN index over each row's
-- list of words finds the few rows holding all of a phrase's words from their own short posting lists, where the
-- pg_trgm index had to intersect the long lists of trigrams that every word shares (4.4 ms against 0.03 ms for a
-- rare phrase over 113,000 turns), and is a seventh of its size, so a push writes less. The LIKE still decides.
-- Words are cut at 100 characters in the list (a GIN key must fit a third of a page); the phrase's words are cut
-- the same way, so the list still holds every row the LIKE would match.
CREATE FUNCTION weft_words(words TEXT) RETURNS TEXT[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT string_to_array(btrim(regexp_replace(words, '(\S{100})\S+', '\1', 'g')), ' ')
$$;

-- A small pending list (256 kB, not 4 MB): every query scans the entries not yet merged into the tree, and after
-- a push of 1 GB up to 4 MB of them per index made a find 4 ms slower (until autovacuum merged them).
CREATE INDEX turns_user_word_list ON turns USING GIN (weft_words(user_words)) WITH (gin_pending_list_limit = 256);
CREATE INDEX turns_assistant_word_list ON turns USING GIN (weft_words(assistant_words))
  WITH (gin_pending_list_limit = 256);
CREATE INDEX materials_title_word_list ON materials USING GIN (weft_words(title_words))
  WITH (gin_pending_list_limit = 256);
CREATE INDEX materials_text_word_list ON materials USING GIN (weft_words(text_words))
  WITH (gin_pending_list_limit = 256);
DROP INDEX turns_user_words;
DROP INDEX turns_assistant_words;
DROP INDEX materials_title_words;
DROP INDEX materials_text_words;

-- A turn's machines are looked up by its key in materials too (find and why name them in the same statement).
CREATE INDEX materials_by_turn_key ON materials(turn_key);
