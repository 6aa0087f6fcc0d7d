-- An NGO's campaign list searched by title (/campaigns?q=, decision 044, branch search17). The title's trigram index
-- finds every campaign with the word (10,001 for "water" at 100x), and campaigns_owner_status_idx every campaign of the
-- NGO (10,003 for the busy one): their intersection, one campaign, cost both (225 buffers), for the count and again for
-- the page, and the partnered half read all of the NGO's partnerships (124). These indexes key each title's trigrams by
-- the NGO (the owner, or the partner in the kept copy): a search reads that NGO's entries for the word's trigrams only.
-- ngo_title_trigrams: pg_trgm's trigrams of the title (show_trgm: lower-cased, each word padded), each prefixed with the
-- first 8 characters of the NGO's id (two NGOs sharing a prefix only widen the lookup; the query still names the NGO).
-- ngo_search_trigrams: the trigrams every title containing the words must have: show_trgm of the search without the
-- padded ones (a word of the search may be part of a longer word of the title). Both read show_trgm by the search_path
-- of this migration: PostgreSQL 17 (PGlite) runs an index's functions with a safe search_path during maintenance.
CREATE FUNCTION ngo_title_trigrams(ngo uuid, title text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
  SET search_path FROM CURRENT
  AS $$ SELECT array(SELECT left(ngo::text, 8) || t FROM unnest(show_trgm(title)) t) $$;--> statement-breakpoint
CREATE FUNCTION ngo_search_trigrams(ngo uuid, words text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE
  SET search_path FROM CURRENT
  AS $$ SELECT array(SELECT left(ngo::text, 8) || t FROM unnest(show_trgm(words)) t WHERE position(' ' in t) = 0) $$;--> statement-breakpoint
CREATE INDEX "campaigns_owner_title_trgm_idx" ON "campaigns" USING gin (ngo_title_trigrams("owner_id", "title")) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "partnered_campaigns_ngo_title_trgm_idx" ON "partnered_campaigns" USING gin (ngo_title_trigrams("ngo_id", "title")) WITH (fastupdate=false);
