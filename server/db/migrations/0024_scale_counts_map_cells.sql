CREATE TABLE "campaign_counts" (
	"owner_id" uuid NOT NULL,
	"status" "campaign_status" NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "campaign_counts_owner_id_status_pk" PRIMARY KEY("owner_id","status")
);
--> statement-breakpoint
CREATE TABLE "map_cells" (
	"zoom" integer NOT NULL,
	"gy" integer NOT NULL,
	"gx" integer NOT NULL,
	"n" integer NOT NULL,
	"sum_lat" double precision NOT NULL,
	"sum_lng" double precision NOT NULL,
	"south" double precision NOT NULL,
	"west" double precision NOT NULL,
	"north" double precision NOT NULL,
	"east" double precision NOT NULL,
	"single_id" text,
	CONSTRAINT "map_cells_zoom_gy_gx_pk" PRIMARY KEY("zoom","gy","gx")
);
--> statement-breakpoint
DROP INDEX "campaigns_owner_status_idx";--> statement-breakpoint
DROP INDEX "campaigns_status_position_idx";--> statement-breakpoint
CREATE INDEX "campaigns_status_lng_idx" ON "campaigns" USING btree ("status","lng","lat","owner_id","id");--> statement-breakpoint
CREATE INDEX "campaigns_owner_status_idx" ON "campaigns" USING btree ("owner_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "campaigns_status_position_idx" ON "campaigns" USING btree ("status","lat","lng","owner_id","id");--> statement-breakpoint
-- Hand-written (decision 044): the triggers that keep campaign_counts and map_cells, and what is there already.
-- campaign_counts: each statement that inserts, deletes or moves campaigns between owners or states adds the
-- difference, grouped, in key order (two transactions lock the rows in one order).
CREATE FUNCTION campaign_counts_of_campaigns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_counts AS t (owner_id, status, n)
    SELECT owner_id, status, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (owner_id, status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO campaign_counts AS t (owner_id, status, n)
    SELECT owner_id, status, -count(*) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (owner_id, status) DO UPDATE SET n = t.n + excluded.n;
  ELSE
    INSERT INTO campaign_counts AS t (owner_id, status, n)
    SELECT c.owner_id, c.status, sum(c.d) FROM (
      SELECT o.owner_id, o.status, -1 AS d FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE (o.owner_id, o.status) IS DISTINCT FROM (w.owner_id, w.status)
      UNION ALL
      SELECT w.owner_id, w.status, 1 AS d FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE (o.owner_id, o.status) IS DISTINCT FROM (w.owner_id, w.status)
    ) c
    GROUP BY 1, 2 HAVING sum(c.d) <> 0 ORDER BY 1, 2
    ON CONFLICT (owner_id, status) DO UPDATE SET n = t.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER campaign_counts_insert AFTER INSERT ON campaigns REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_of_campaigns();
--> statement-breakpoint
CREATE TRIGGER campaign_counts_update AFTER UPDATE ON campaigns REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_of_campaigns();
--> statement-breakpoint
CREATE TRIGGER campaign_counts_delete AFTER DELETE ON campaigns REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_of_campaigns();
--> statement-breakpoint
INSERT INTO campaign_counts (owner_id, status, n) SELECT owner_id, status, count(*) FROM campaigns GROUP BY 1, 2;
--> statement-breakpoint
-- map_cells: recounts the given level-12 cells from the campaigns the map shows (active, owner verified and not
-- suspended, as ownerInGoodStanding), then each coarser level's cells above them from their four finer cells. A cell
-- of level z holds the campaigns with floor(lat / (84.375 / 2^z)) = gy and floor(lng / …) = gx, as map.ts groups
-- them; halving a power-of-two cell is exact in floating point, so a cell of level z is exactly four of level z + 1.
-- One transaction recounts at a time (an advisory lock held to commit): each statement then sees the campaigns and
-- the cells of the transactions before it, so no two recounts of a cell race. Changes that move a campaign on or off
-- the map (creating, completing, closing, deleting, moving one; suspending or reinstating an NGO) are rare.
CREATE FUNCTION map_cells_recount(ys integer[], xs integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c12 CONSTANT double precision := 0.020599365234375; -- 84.375 / 2^12
  z integer;
  d double precision;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('map_cells'));
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
-- The level-12 cells a statement's campaigns were or are in, when the change can move one on or off the map.
CREATE FUNCTION map_cells_of_campaigns() RETURNS trigger LANGUAGE plpgsql AS $$
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
    PERFORM map_cells_recount(ys, xs);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The cells of an NGO's active campaigns when it enters or leaves good standing (verified, not suspended).
CREATE FUNCTION map_cells_of_users() RETURNS trigger LANGUAGE plpgsql AS $$
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
    PERFORM map_cells_recount(ys, xs);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER map_cells_insert AFTER INSERT ON campaigns REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION map_cells_of_campaigns();
--> statement-breakpoint
CREATE TRIGGER map_cells_update AFTER UPDATE ON campaigns REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION map_cells_of_campaigns();
--> statement-breakpoint
CREATE TRIGGER map_cells_delete AFTER DELETE ON campaigns REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION map_cells_of_campaigns();
--> statement-breakpoint
CREATE TRIGGER map_cells_standing AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION map_cells_of_users();
--> statement-breakpoint
SELECT map_cells_recount(array_agg(s.y), array_agg(s.x)) FROM (
  SELECT DISTINCT floor(lat / 0.020599365234375)::integer AS y, floor(lng / 0.020599365234375)::integer AS x
  FROM campaigns WHERE status = 'active'
) s HAVING count(*) > 0;
