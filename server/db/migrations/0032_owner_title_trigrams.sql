-- An NGO's campaign list searched by title (/campaigns?q=, decision 044, branch search17). The title's trigram index
-- finds every campaign with the word (10,001 for "water" at 100x), and campaigns_owner_status_idx every campaign of the
-- NGO (10,003 for the busy one): their intersection, one campaign, cost both (225 buffers), for the count and again for
-- the page, and the partnered half read all of the NGO's partnerships (124). These indexes key each title's trigrams by
-- the NGO (the owner, or the partner in the kept copy): a search reads that NGO's entries for the search's trigrams only.
-- ngo_title_trigrams: every three characters in a row of the lower-cased title (spaces and punctuation included), each
-- prefixed with the first 8 characters of the NGO's id (two NGOs sharing a prefix only widen the lookup; the query still
-- names the NGO). ILIKE compares the lower-cased texts, so a title that contains the search contains each of the
-- search's own three characters in a row: the search asks for all of them (ngo_title_trigrams of the search) and the
-- ILIKE decides. Not pg_trgm's show_trgm: it pads each word, and shows a trigram of non-ASCII letters (Urdu) as a hash
-- in which its padding cannot be told apart, so a search's padded trigrams could not be left out.
CREATE FUNCTION ngo_title_trigrams(ngo uuid, title text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array(SELECT DISTINCT left(ngo::text, 8) || substr(lower(title), i, 3)
    FROM generate_series(1, length(lower(title)) - 2) i) $$;--> statement-breakpoint
CREATE INDEX "campaigns_owner_title_trgm_idx" ON "campaigns" USING gin (ngo_title_trigrams("owner_id", "title")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "partnered_campaigns_ngo_title_trgm_idx" ON "partnered_campaigns" USING gin (ngo_title_trigrams("ngo_id", "title")) WITH (fastupdate=false);
