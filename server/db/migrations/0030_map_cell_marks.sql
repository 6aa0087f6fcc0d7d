CREATE TABLE "map_cell_marks" (
	"gy" integer NOT NULL,
	"gx" integer NOT NULL
);
--> statement-breakpoint
-- Hand-written (decision 044, 2026-11-27): map_cells without a lock in the changing transactions. The triggers of
-- migration 0024 recounted the cells a change touched in the changing statement, under one advisory lock held to commit:
-- every change that moved a campaign on or off the map waited for every other (all of Pakistan is one cell of levels
-- 0-1, so no narrower lock key would have let two changes pass each other). Now the triggers only append the level-12
-- cells they touch to map_cell_marks (an insert into a table without a key waits for nobody), and map_cells_fold(),
-- called before the map is read, takes the marks and recounts their cells from the campaigns under its own lock, held
-- by folds only. A recount counts what is committed, so it is exact whatever it folds: a mark commits with its change,
-- the marks a fold deletes were committed before its recount's snapshot, and a change committed after that leaves a
-- mark of its own for the next fold.
CREATE OR REPLACE FUNCTION map_cells_recount(ys integer[], xs integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c12 CONSTANT double precision := 0.020599365234375; -- 84.375 / 2^12
  z integer;
  d double precision;
BEGIN
  DELETE FROM map_cells m USING unnest(ys, xs) AS u (y, x) WHERE m.zoom = 12 AND m.gy = u.y AND m.gx = u.x;
  IF cardinality(ys) > 1000 THEN
    -- Many cells (a bulk load, the backfill): one pass over the campaigns the map shows.
    INSERT INTO map_cells (zoom, gy, gx, n, sum_lat, sum_lng, south, west, north, east, single_id)
    SELECT 12, g.y, g.x, count(*)::integer, sum(g.lat), sum(g.lng), min(g.lat), min(g.lng), max(g.lat), max(g.lng),
      CASE WHEN count(*) = 1 THEN min(g.id::text) END
    FROM (
      SELECT floor(c.lat / c12)::integer AS y, floor(c.lng / c12)::integer AS x, c.lat, c.lng, c.id FROM campaigns c
      WHERE c.status = 'active'
        AND c.owner_id IN (SELECT o.id FROM users o WHERE o.verification = 'verified' AND o.suspended_at IS NULL)
    ) g
    WHERE (g.y, g.x) IN (SELECT v.y, v.x FROM unnest(ys, xs) AS v (y, x))
    GROUP BY g.y, g.x;
  ELSE
    INSERT INTO map_cells (zoom, gy, gx, n, sum_lat, sum_lng, south, west, north, east, single_id)
    SELECT 12, u.y, u.x, a.n, a.sum_lat, a.sum_lng, a.south, a.west, a.north, a.east, a.single_id
    FROM (SELECT DISTINCT y, x FROM unnest(ys, xs) AS v (y, x)) u
    CROSS JOIN LATERAL (
      SELECT count(*)::integer AS n, sum(c.lat) AS sum_lat, sum(c.lng) AS sum_lng, min(c.lat) AS south, min(c.lng) AS west,
        max(c.lat) AS north, max(c.lng) AS east, CASE WHEN count(*) = 1 THEN min(c.id::text) END AS single_id
      FROM campaigns c
      -- The ranges (a cell wider on each side) let the position index find the cell; the floors decide.
      WHERE c.status = 'active'
        AND c.lat >= (u.y - 1) * c12 AND c.lat < (u.y + 2) * c12
        AND c.lng >= (u.x - 1) * c12 AND c.lng < (u.x + 2) * c12
        AND floor(c.lat / c12)::integer = u.y AND floor(c.lng / c12)::integer = u.x
        AND c.owner_id IN (SELECT o.id FROM users o WHERE o.verification = 'verified' AND o.suspended_at IS NULL)
    ) a
    WHERE a.n > 0;
  END IF;
  FOR z IN REVERSE 11..0 LOOP
    d := 2 ^ (12 - z);
    DELETE FROM map_cells m
    USING (SELECT DISTINCT floor(y / d)::integer AS y, floor(x / d)::integer AS x FROM unnest(ys, xs) AS v (y, x)) u
    WHERE m.zoom = z AND m.gy = u.y AND m.gx = u.x;
    INSERT INTO map_cells (zoom, gy, gx, n, sum_lat, sum_lng, south, west, north, east, single_id)
    SELECT z, u.y, u.x, sum(f.n)::integer, sum(f.sum_lat), sum(f.sum_lng), min(f.south), min(f.west), max(f.north),
      max(f.east), CASE WHEN sum(f.n) = 1 THEN max(f.single_id) END
    FROM (SELECT DISTINCT floor(y / d)::integer AS y, floor(x / d)::integer AS x FROM unnest(ys, xs) AS v (y, x)) u
    JOIN map_cells f ON f.zoom = z + 1 AND f.gy BETWEEN 2 * u.y AND 2 * u.y + 1 AND f.gx BETWEEN 2 * u.x AND 2 * u.x + 1
    GROUP BY u.y, u.x;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION map_cells_of_campaigns() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c12 CONSTANT double precision := 0.020599365234375;
  ys integer[];
  xs integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(s.y), array_agg(s.x) INTO ys, xs FROM (
      SELECT DISTINCT floor(w.lat / c12)::integer AS y, floor(w.lng / c12)::integer AS x FROM new_rows w WHERE w.status = 'active'
    ) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(s.y), array_agg(s.x) INTO ys, xs FROM (
      SELECT DISTINCT floor(o.lat / c12)::integer AS y, floor(o.lng / c12)::integer AS x FROM old_rows o WHERE o.status = 'active'
    ) s;
  ELSE
    SELECT array_agg(s.y), array_agg(s.x) INTO ys, xs FROM (
      SELECT floor(o.lat / c12)::integer AS y, floor(o.lng / c12)::integer AS x FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE o.status = 'active' AND (o.status, o.lat, o.lng, o.owner_id) IS DISTINCT FROM (w.status, w.lat, w.lng, w.owner_id)
      UNION
      SELECT floor(w.lat / c12)::integer, floor(w.lng / c12)::integer FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE w.status = 'active' AND (o.status, o.lat, o.lng, o.owner_id) IS DISTINCT FROM (w.status, w.lat, w.lng, w.owner_id)
    ) s;
  END IF;
  IF ys IS NOT NULL THEN
    INSERT INTO map_cell_marks (gy, gx) SELECT * FROM unnest(ys, xs);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION map_cells_of_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  c12 CONSTANT double precision := 0.020599365234375;
  ys integer[];
  xs integer[];
BEGIN
  SELECT array_agg(s.y), array_agg(s.x) INTO ys, xs FROM (
    SELECT DISTINCT floor(c.lat / c12)::integer AS y, floor(c.lng / c12)::integer AS x
    FROM old_rows o JOIN new_rows w ON w.id = o.id JOIN campaigns c ON c.owner_id = w.id AND c.status = 'active'
    WHERE (o.verification = 'verified' AND o.suspended_at IS NULL) IS DISTINCT FROM (w.verification = 'verified' AND w.suspended_at IS NULL)
  ) s;
  IF ys IS NOT NULL THEN
    INSERT INTO map_cell_marks (gy, gx) SELECT * FROM unnest(ys, xs);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recounts the marked cells, one fold at a time; nothing to do (the common case) costs one look at an empty table. In
-- READ COMMITTED each statement below sees what was committed when it began: the marks after the lock was granted, the
-- campaigns after the marks were taken.
CREATE FUNCTION map_cells_fold() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  ys integer[];
  xs integer[];
BEGIN
  IF NOT EXISTS (SELECT 1 FROM map_cell_marks) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('map_cells'));
  WITH taken AS (DELETE FROM map_cell_marks RETURNING gy, gx)
  SELECT array_agg(s.gy), array_agg(s.gx) INTO ys, xs FROM (SELECT DISTINCT gy, gx FROM taken) s;
  IF ys IS NOT NULL THEN
    PERFORM map_cells_recount(ys, xs);
  END IF;
END $$;
