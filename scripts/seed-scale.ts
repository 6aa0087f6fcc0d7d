/**
 * `npm run seed:scale [-- --factor N]`: the demo data, then N times the demo scale of generated data (default 100:
 * 100,000 campaigns, 1,000,000 donations, 100,000 pick-ups, and the NGOs, donors and riders they need) in the
 * PostgreSQL database of DATABASE_URL, for measuring how pages cost as data grows (decision 044). One scale unit
 * is 1,000 campaigns, 10,000 donations and 1,000 pick-ups; `--factor 1` is the "1×" of the latency table.
 *
 * Set-based SQL (generate_series, one statement per table), not the app's functions row by row: 100× takes minutes.
 * Deterministic: ids are md5 of a name and every choice is arithmetic on the row's number, so two runs make the same
 * rows (times are fixed too). The invariants the app relies on hold: a campaign's collected amount is the sum of its
 * approved cash gifts, an active campaign has not met its target, a finished campaign has nothing pending, each
 * approved cash gift has its NGO's next receipt number, a pick-up's steps lead to its state, and an in-kind
 * donation is approved when its goods were received and rejected when cancelled. The demo NGO (Roshni Welfare
 * Trust) is the busy one: a tenth of the campaigns and their donations, and a partner in others.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, type DbOrTx } from "#server/db/client.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from "#server/demo/seed.ts";
import { findUserByEmail } from "#server/domain/accounts/accounts.ts";
import { tallyDrift } from "#server/domain/donations/tallies.ts";
import { partneredDrift } from "#server/domain/campaigns/access.ts";
import { campaignCountDrift } from "#server/domain/campaigns/standing.ts";
import { mapCellDrift } from "#server/domain/map/map.ts";
import { hashPassword } from "#server/domain/accounts/passwords.ts";
import { createGeocoder } from "#server/domain/places/geocoder.ts";
import { loadConfig } from "#server/config.ts";
import { createLogger } from "#server/log.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { openQueue } from "#server/jobs/queue.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import type { Services } from "#server/services.ts";

const { values } = parseArgs({ options: { factor: { type: "string", default: "100" } } });
const factor = Number(values.factor);
if (!Number.isInteger(factor) || factor < 1 || factor > 1000) {
  console.error("--factor must be a whole number from 1 to 1000");
  process.exit(2);
}

const config = loadConfig();
if (!config.DATABASE_URL) {
  console.error("seed:scale needs DATABASE_URL (PostgreSQL): the embedded database is not for this much data");
  process.exit(2);
}
const log = createLogger("warn");
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
const db = database.db;
// The demo seed's steps are the product's own functions, which take the queue (decision 042).
const queue = await openQueue(database, log, { mailAttempts: config.MAIL_ATTEMPTS, mailRetrySeconds: config.MAIL_RETRY_SECONDS });
const services: Services = {
  config,
  db,
  log,
  mailer: createMailer({ log }),
  jobs: queue,
  storage: createLocalStorage(path.join(config.dataDir, "files")),
  geocoder: createGeocoder(config, log),
};

const started = Date.now();
await seedDemoData(services);
if (await findUserByEmail(db, "ngo1@scale.ekchhat.pk")) {
  console.log("The scale data is already in this database; nothing to do.");
  await queue.stop();
  await database.close();
  process.exit(0);
}
const busyNgo = (await findUserByEmail(db, DEMO_ACCOUNTS.ngo))!.id;
const demoDonor = (await findUserByEmail(db, DEMO_ACCOUNTS.donor))!.id;
const demoRider = (await findUserByEmail(db, DEMO_ACCOUNTS.rider))!.id;
const passwordHash = await hashPassword(DEMO_PASSWORD);

const n = {
  ngos: 10 * factor,
  donors: 50 * factor,
  riders: 2 * factor,
  campaigns: 1_000 * factor,
  donations: 10_000 * factor,
};

/** Every generated time counts back from here, so two runs make the same rows. */
const ANCHOR = "2026-11-24 12:00:00+05";
/** Campaigns start over these two years; three share each start, so lists have ties on created_at. */
const SPAN_DAYS = 730;

/** The transaction every step runs in: a failed run leaves nothing behind. */
let exec: DbOrTx = db;

async function step(label: string, statement: string) {
  const t0 = Date.now();
  const result = await exec.execute(sql.raw(statement));
  const rows = (result as { rowCount?: number | null }).rowCount;
  console.log(
    `${label.padEnd(36)} ${rows === undefined || rows === null ? "" : String(rows).padStart(9)} ${String(Date.now() - t0).padStart(7)} ms`,
  );
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

// Places across Pakistan (name, latitude, longitude): campaigns and pick-ups sit near one of them.
const PLACES = [
  ["Karachi", 24.86, 67.01],
  ["Lahore", 31.55, 74.34],
  ["Islamabad", 33.69, 73.05],
  ["Rawalpindi", 33.6, 73.04],
  ["Faisalabad", 31.42, 73.08],
  ["Multan", 30.2, 71.47],
  ["Peshawar", 34.01, 71.58],
  ["Quetta", 30.18, 66.98],
  ["Hyderabad", 25.4, 68.37],
  ["Sukkur", 27.71, 68.85],
  ["Dadu", 26.73, 67.78],
  ["Gilgit", 35.92, 74.31],
  ["Muzaffarabad", 34.37, 73.47],
  ["Gwadar", 25.12, 62.33],
  ["Bahawalpur", 29.4, 71.68],
  ["Sialkot", 32.49, 74.53],
  ["Swat", 35.22, 72.43],
  ["Thar", 24.75, 70.18],
] as const;
const placesSql = `(values ${PLACES.map(([name, lat, lng], i) => `(${i}, ${lit(name)}, ${lat}, ${lng})`).join(", ")}) as pl(k, name, lat, lng)`;
const P = PLACES.length;

const CAUSES = ["food", "health", "education", "shelter", "water", "relief", "livelihood", "other"];
const THEMES = [
  "Ration bags for",
  "Clean water for",
  "School books for",
  "Winter blankets for",
  "Medical camp in",
  "Flood relief for",
  "Sewing machines for widows in",
  "Shelter repair in",
  "Eid gifts for children of",
  "Solar lights for",
];

await db.transaction(async (tx) => {
  exec = tx;
  await step(
    "users (NGOs, donors, riders)",
    `insert into users (id, email, password_hash, role, verification, verified_at, suspended_at, created_at, updated_at)
   select md5('ekc-scale-ngo-' || i)::uuid, 'ngo' || i || '@scale.ekchhat.pk', ${lit(passwordHash)}, 'ngo'::user_role, 'verified'::verification_status,
          timestamptz '${ANCHOR}' - interval '800 days',
          case when i % 97 = 0 then timestamptz '${ANCHOR}' - interval '3 days' end,
          timestamptz '${ANCHOR}' - interval '800 days', timestamptz '${ANCHOR}' - interval '800 days'
   from generate_series(1, ${n.ngos}) i
   union all
   select md5('ekc-scale-donor-' || i)::uuid, 'donor' || i || '@scale.ekchhat.pk', ${lit(passwordHash)}, 'donor'::user_role, 'verified'::verification_status, null, null,
          timestamptz '${ANCHOR}' - interval '760 days', timestamptz '${ANCHOR}' - interval '760 days'
   from generate_series(1, ${n.donors}) i
   union all
   select md5('ekc-scale-rider-' || i)::uuid, 'rider' || i || '@scale.ekchhat.pk', ${lit(passwordHash)}, 'rider'::user_role, 'verified'::verification_status,
          timestamptz '${ANCHOR}' - interval '760 days', null,
          timestamptz '${ANCHOR}' - interval '760 days', timestamptz '${ANCHOR}' - interval '760 days'
   from generate_series(1, ${n.riders}) i`,
  );
  // A tenth of the NGOs take no cash (no payment account): the cash picker leaves their campaigns out.
  await step(
    "ngo_profiles",
    `insert into ngo_profiles (user_id, name, address, registration_number, contact_number, jazzcash_number, easypaisa_number)
   select md5('ekc-scale-ngo-' || i)::uuid,
          (array['Al-Khidmat', 'Sahil', 'Noor', 'Baitul', 'Hamdard', 'Insaf', 'Rahmat', 'Umang'])[1 + i % 8] || ' '
            || (array['Welfare Society', 'Foundation', 'Trust', 'Relief Network'])[1 + (i / 8) % 4] || ' ' || i,
          pl.name || ' office ' || i, 'REG-' || lpad(i::text, 6, '0'), '0300' || lpad(i::text, 7, '0'),
          case when i % 10 <> 0 then '0301' || lpad(i::text, 7, '0') end, null
   from generate_series(1, ${n.ngos}) i join ${placesSql} on pl.k = i % ${P}
   order by i`,
  );
  await step(
    "donor_profiles",
    `insert into donor_profiles (user_id, first_name, last_name, address, contact_number)
   select md5('ekc-scale-donor-' || i)::uuid,
          (array['Ali', 'Sana', 'Imran', 'Hina', 'Kamran', 'Mehwish', 'Zubair', 'Rabia', 'Tariq', 'Nida'])[1 + i % 10],
          (array['Khan', 'Malik', 'Butt', 'Chaudhry', 'Siddiqui', 'Sheikh', 'Awan'])[1 + (i / 10) % 7],
          pl.name, '0321' || lpad(i::text, 7, '0')
   from generate_series(1, ${n.donors}) i join ${placesSql} on pl.k = i % ${P}`,
  );
  await step(
    "rider_profiles",
    `insert into rider_profiles (user_id, first_name, last_name, contact_number, cnic, area_label, area_lat, area_lng)
   select md5('ekc-scale-rider-' || i)::uuid, 'Rider', 'No. ' || i, '0333' || lpad(i::text, 7, '0'), lpad(i::text, 13, '4'),
          pl.name, pl.lat, pl.lng
   from generate_series(1, ${n.riders}) i join ${placesSql} on pl.k = i % ${P}`,
  );

  // Campaign i: every tenth is the busy NGO's, the rest spread over the generated NGOs; newest first by i. Every
  // 20th is completed, every 50th (from 13) archived; every 20th (from 3) has a partner, every 50th (from 17) of
  // another NGO has the busy NGO as its partner.
  await step(
    "scale_campaigns (plan)",
    `create temporary table scale_campaigns as
   select i, md5('ekc-scale-campaign-' || i)::uuid as id,
          case when i % 10 = 0 then '${busyNgo}'::uuid else md5('ekc-scale-ngo-' || (1 + i % ${n.ngos}))::uuid end as owner,
          case when i % 20 = 3 then md5('ekc-scale-ngo-' || (1 + (i + 1) % ${n.ngos}))::uuid
               when i % 50 = 17 then '${busyNgo}'::uuid end as partner,
          case when i % 20 = 7 then 'completed' when i % 50 = 13 then 'archived' else 'active' end::campaign_status as status,
          timestamptz '${ANCHOR}' - ((i / 3) * 3) * (interval '${SPAN_DAYS} days' / ${n.campaigns}) as created_at
   from generate_series(1, ${n.campaigns}) i`,
  );
  await step("scale_campaigns (index)", `create index on scale_campaigns (i); analyze scale_campaigns`);
  await step(
    "campaigns",
    `insert into campaigns (id, slug, owner_id, title, description, target_amount, collected_amount, other_items, location_label,
                          lat, lng, accepted_funds, cause, status, completed_at, archived_at, created_at, updated_at)
   select sc.id, 'scale-' || sc.i, sc.owner,
          (array[${THEMES.map(lit).join(", ")}])[1 + sc.i % ${THEMES.length}] || ' ' || pl.name || ' #' || sc.i,
          'Help families in ' || pl.name || ' with what they need most this season. Every rupee is accounted for.',
          100000 + (sc.i % 40) * 25000, 0,
          case when sc.i % 3 = 0 then 'Blankets, dry rations, school bags' end,
          pl.name, pl.lat + ((sc.i % 101) - 50) * 0.004, pl.lng + ((sc.i % 89) - 44) * 0.004,
          case when sc.i % 4 = 0 then '{zakat,general}' else '{general}' end::fund_kind[], (array[${CAUSES.map(lit).join(", ")}])[1 + sc.i % ${CAUSES.length}]::campaign_cause, sc.status,
          case when sc.status = 'completed' then sc.created_at + interval '20 days' end,
          case when sc.status = 'archived' then sc.created_at + interval '25 days' end,
          sc.created_at, sc.created_at
   from scale_campaigns sc join ${placesSql} on pl.k = sc.i % ${P}
   order by sc.i`,
  );
  // A campaign takes Zakat only with its owner's current attestation (decision 048).
  await step(
    "zakat_attestations",
    `insert into zakat_attestations (campaign_id, statement, lang, attested_by, attested_at)
   select id, 'Scale seed attestation', 'en', owner, created_at from scale_campaigns where i % 4 = 0`,
  );
  await step(
    "campaign_partners",
    `insert into campaign_partners (campaign_id, ngo_id, direction, status, responded_at, created_at, updated_at)
   select id, partner, case when i % 2 = 0 then 'invited' else 'requested' end::partnership_direction, 'accepted',
          created_at + interval '1 day', created_at, created_at + interval '1 day'
   from scale_campaigns where partner is not null and partner <> owner`,
  );

  // Donation j goes to a campaign chosen by a hash of j (each campaign gets its share, the busy NGO its tenth, and a
  // campaign's gifts are of every kind and state), at a time between the campaign's start and the anchor. Every tenth (from 5) is goods.
  // Cash: seven in ten approved, two pending, one rejected, each approved gift numbered after its NGO's
  // last receipt; a finished campaign has nothing pending. Goods: the
  // pick-up's state cycles through all seven; received goods are an approved donation, cancelled ones rejected.
  await step(
    "donations",
    `insert into donations (id, campaign_id, donor_id, recipient_ngo_id, kind, status, amount, method, items, phone, transaction_id,
                          idempotency_key, rejection_reason, decided_by, decided_at, receipt_number, created_at, updated_at)
   select d.id, sc.id, d.donor, d.recipient, d.kind, d.status,
          case when d.kind = 'cash' then 500 + (j * 37 % 200) * 250 end,
          case when d.kind = 'cash' then (array['jazzcash', 'easypaisa', 'bank'])[1 + j % 3]::payment_method end,
          case when d.kind = 'in_kind' then (array['Two bags of clothes', 'Rice 20 kg and lentils', 'School books and bags', 'Blankets (4)'])[1 + j % 4] end,
          '0321' || lpad((j % 9999999)::text, 7, '0'),
          case when d.kind = 'cash' then 'TX' || lpad(j::text, 10, '0') end,
          'scale-' || j,
          case when d.status = 'rejected' and d.kind = 'cash' then 'The transfer is not in our statement'
               when d.status = 'rejected' then 'The donor was not at home' end,
          case when d.status <> 'pending' then d.recipient end,
          case when d.status <> 'pending' then d.created_at + interval '5 hours' end,
          case when d.kind = 'cash' and d.status = 'approved'
               then p.receipt_counter + row_number() over (partition by d.recipient, d.kind = 'cash' and d.status = 'approved'
                                                           order by d.created_at, d.id) end,
          d.created_at, d.created_at
   from (
     select j, c, md5('ekc-scale-donation-' || j)::uuid as id,
            case when j % 97 = 0 then '${demoDonor}'::uuid else md5('ekc-scale-donor-' || (1 + j * 31 % ${n.donors}))::uuid end as donor,
            case when j % 10 = 5 then 'in_kind' else 'cash' end::donation_kind as kind,
            case
              when j % 10 = 5 then (case (j / 10) % 7 when 5 then 'approved' when 6 then 'rejected'
                                     else case when sc.status = 'active' then 'pending' when (j / 10) % 2 = 0 then 'approved' else 'rejected' end end)
              when (j / 7) % 10 < 7 then 'approved'
              when (j / 7) % 10 < 9 then case when sc.status = 'active' then 'pending' else 'approved' end
              else 'rejected'
            end::donation_status as status,
            case when sc.partner is not null and sc.partner <> sc.owner and j % 3 = 0 then sc.partner else sc.owner end as recipient,
            date_trunc('second', sc.created_at + (timestamptz '${ANCHOR}' - sc.created_at) * ((j * 0.6180339887) % 1)) as created_at
     from (select j, 1 + ('x' || substr(md5('ekc-scale-pick-' || j), 1, 8))::bit(32)::bigint % ${n.campaigns} as c
           from generate_series(1, ${n.donations}) j) g
     join scale_campaigns sc on sc.i = g.c
   ) d join scale_campaigns sc on sc.i = d.c join ngo_profiles p on p.user_id = d.recipient
   order by d.created_at`,
  );
  await step(
    "receipt counters",
    `update ngo_profiles p set receipt_counter = m.top
   from (select recipient_ngo_id, max(receipt_number) as top from donations group by recipient_ngo_id) m
   where p.user_id = m.recipient_ngo_id and m.top is not null and m.top > p.receipt_counter`,
  );

  // The pick-up's state follows its donation's: pending goods are on their way (new … delivered), received goods
  // approved, cancelled ones rejected. A rider carries every pick-up past `new`; the demo rider one in ten.
  await step(
    "pickups",
    `insert into pickups (donation_id, address, area_label, lat, lng, window_date, window_slot, status, rider_id, code, received_note, created_at, updated_at)
   select d.id, 'House ' || (x.j % 300) || ', Street ' || (x.j % 40), pl.name,
          pl.lat + ((x.j % 71) - 35) * 0.003, pl.lng + ((x.j % 67) - 33) * 0.003,
          to_char((d.created_at + interval '2 days') at time zone 'Asia/Karachi', 'YYYY-MM-DD'),
          (array['morning', 'afternoon', 'evening'])[1 + x.j % 3]::pickup_slot, x.status,
          case when x.status not in ('new') and not (x.status = 'cancelled' and (x.j / 10) % 2 = 0)
               then case when x.j % 100 = 15 then '${demoRider}'::uuid else md5('ekc-scale-rider-' || (1 + x.j % ${n.riders}))::uuid end end,
          lpad((x.j % 10000)::text, 4, '0'),
          case when x.status = 'received' then 'All as listed' end,
          d.created_at, d.created_at
   from (
     select j, md5('ekc-scale-donation-' || j)::uuid as id,
            (case when (j / 10) % 7 = 5 then 'received' when (j / 10) % 7 = 6 then 'cancelled'
                  else (array['new', 'assigned', 'accepted', 'collected', 'delivered'])[1 + (j / 10) % 7] end)::pickup_status as status
     from generate_series(5, ${n.donations}, 10) j
   ) x
   join donations d on d.id = x.id
   join ${placesSql} on pl.k = x.j % ${P}
   where d.status = case when x.status = 'received' then 'approved'::donation_status
                         when x.status = 'cancelled' then 'rejected'::donation_status else 'pending'::donation_status end`,
  );
  // Goods of a finished campaign whose planned state was still open were decided above (approved or rejected): their
  // pick-up is received or cancelled accordingly.
  await step(
    "pickups (finished campaigns)",
    `insert into pickups (donation_id, address, area_label, lat, lng, window_date, window_slot, status, rider_id, code, received_note, created_at, updated_at)
   select d.id, 'House 1, Street 1', c.location_label, c.lat, c.lng,
          to_char((d.created_at + interval '2 days') at time zone 'Asia/Karachi', 'YYYY-MM-DD'), 'morning',
          case when d.status = 'approved' then 'received' else 'cancelled' end::pickup_status,
          case when d.status = 'approved' then md5('ekc-scale-rider-1')::uuid end, '0000',
          case when d.status = 'approved' then 'All as listed' end, d.created_at, d.created_at
   from donations d join campaigns c on c.id = d.campaign_id
   where d.kind = 'in_kind' and d.idempotency_key like 'scale-%'
     and not exists (select 1 from pickups p where p.donation_id = d.id)`,
  );
  // Each pick-up's steps up to its state, an hour apart, in order (ids follow the order of insert).
  await step(
    "pickup_events",
    `insert into pickup_events (donation_id, type, actor_id, rider_id, created_at)
   select p.donation_id, s.type, case when s.type in ('requested') then d.donor_id
                                      when s.type in ('assigned', 'received', 'cancelled') then d.recipient_ngo_id else p.rider_id end,
          case when s.type <> 'requested' then p.rider_id end, p.created_at + s.n * interval '1 hour'
   from pickups p join donations d on d.id = p.donation_id
   join lateral (
     select n, type::pickup_event as type from unnest(
       case p.status
         when 'new' then array['requested']
         when 'assigned' then array['requested', 'assigned']
         when 'accepted' then array['requested', 'assigned', 'accepted']
         when 'collected' then array['requested', 'assigned', 'accepted', 'collected']
         when 'delivered' then array['requested', 'assigned', 'accepted', 'collected', 'delivered']
         when 'received' then array['requested', 'assigned', 'accepted', 'collected', 'delivered', 'received']
         else array['requested', 'cancelled'] end) with ordinality as u(type, n)
   ) s on true
   where d.idempotency_key like 'scale-%'
   order by p.created_at, p.donation_id, s.n`,
  );

  // The invariants: collected = approved cash; an active campaign has not met its target, a completed one has.
  await step(
    "collected amounts",
    `update campaigns c set collected_amount = s.total
   from (select campaign_id, sum(amount) as total from donations where kind = 'cash' and status = 'approved' group by campaign_id) s
   where c.id = s.campaign_id and c.slug like 'scale-%'`,
  );
  await step(
    "targets",
    `update campaigns set target_amount = case when status = 'active' then greatest(target_amount, collected_amount + 50000)
                                              when status = 'completed' then greatest(least(target_amount, collected_amount), 1000)
                                              else target_amount end
   where slug like 'scale-%'`,
  );
  await step("analyze", "analyze");
});

const checked = (await db.execute(
  sql`select (select count(*) from campaigns)::int as campaigns, (select count(*) from donations)::int as donations,
             (select count(*) from pickups)::int as pickups, (select count(*) from users)::int as users,
             (select count(*) from campaigns c where c.collected_amount <> coalesce((select sum(amount) from donations d
               where d.campaign_id = c.id and d.kind = 'cash' and d.status = 'approved'), 0))::int as unreconciled`,
)) as unknown as { rows: Record<string, number>[] };
const counts = checked.rows[0]!;
// The donation tallies the triggers kept through the bulk inserts (decision 044), against a fresh count.
const drift = await tallyDrift(database.db);
// And the campaign counts and the map's grid (migration 0022), likewise.
const countDrift = await campaignCountDrift(database.db);
const cellDrift = await mapCellDrift(database.db);
// And the kept copy of the partnerships (migration 0028).
const partnerDrift = await partneredDrift(database.db);
console.log({
  ...counts,
  tallyMismatches: drift.length,
  campaignCountMismatches: countDrift.length,
  mapCellMismatches: cellDrift.length,
  partneredMismatches: partnerDrift.length,
});
for (const line of drift.slice(0, 10)) console.error(`tally mismatch ${line}`);
for (const line of countDrift.slice(0, 10)) console.error(`campaign count mismatch ${line}`);
for (const line of cellDrift.slice(0, 10)) console.error(`map cell mismatch ${line}`);
for (const line of partnerDrift.slice(0, 10)) console.error(`partnered campaign mismatch ${line}`);
if (counts.unreconciled !== 0 || drift.length !== 0 || countDrift.length !== 0 || cellDrift.length !== 0 || partnerDrift.length !== 0)
  process.exitCode = 1;
console.log(`seed:scale ×${factor} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
await queue.stop();
await database.close();
