-- Decision 050: what the public page's donor count costs at 100,000 campaigns and 1,000,000 donations.
-- Run: createdb updates_bench && psql -X -q -d updates_bench -f bench/donor-count.sql (PostgreSQL 15).
-- The table holds only the columns the count reads, with the same partial index as donations
-- (donations_campaign_donor_approved_idx); one campaign has 20,000 gifts, the rest share 980,000.
drop table if exists d;
create table d (id bigserial primary key, campaign_id int not null, donor_id int not null, status text not null, filler text);
insert into d (campaign_id, donor_id, status, filler)
  select case when g <= 20000 then 1 else 2 + (g % 99999) end, ((g::bigint * 7919) % 300000)::int,
         case when g % 10 = 0 then 'pending' else 'approved' end, repeat('x', 200)
  from generate_series(1, 1000000) g;
create index d_campaign_status_idx on d (campaign_id, status);
create index d_campaign_donor_approved_idx on d (campaign_id, donor_id) where status = 'approved';
vacuum analyze d;
\echo 'the largest campaign (20,000 gifts, 18,000 approved):'
explain (analyze, buffers, costs off, timing off, summary off) select count(distinct donor_id) from d where campaign_id = 1 and status = 'approved';
\echo 'a typical campaign (about 10 gifts):'
explain (analyze, buffers, costs off, timing off, summary off) select count(distinct donor_id) from d where campaign_id = 5000 and status = 'approved';
\echo 'timed (ms): three runs of the largest, one of the typical:'
\timing on
select count(distinct donor_id) from d where campaign_id = 1 and status = 'approved';
select count(distinct donor_id) from d where campaign_id = 1 and status = 'approved';
select count(distinct donor_id) from d where campaign_id = 1 and status = 'approved';
select count(distinct donor_id) from d where campaign_id = 5000 and status = 'approved';
\timing off
\echo 'without the partial index (the existing donations_campaign_status_idx only):'
drop index d_campaign_donor_approved_idx;
explain (analyze, buffers, costs off, timing off, summary off) select count(distinct donor_id) from d where campaign_id = 1 and status = 'approved';
