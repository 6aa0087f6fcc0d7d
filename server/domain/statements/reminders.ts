import { sql } from "drizzle-orm";
import { formatRupees } from "#shared/money.ts";
import { formatPledgeCode } from "#shared/pledges.ts";
import type { Services } from "#server/services.ts";
import { appLink, notify } from "#server/domain/notifications/notifications.ts";

/** Donors reminded per round of the hourly upkeep: the rest wait for the next round. */
export const REMINDERS_PER_ROUND = 200;

interface Claimed {
  id: string;
  donor_id: string;
  amount: string | number;
  transaction_id: string | null;
  campaign: string;
  ngo: string;
  contact: string;
  first_name: string | null;
  code: string | null;
}

/**
 * Reminds the donors of cash gifts that have waited RECONCILE_REMINDER_DAYS without a line of the NGO's statement,
 * once per gift, and only where the NGO imported a statement of that account reaching past the gift's day (a gift
 * to an NGO that imports no statements is not "missing" from one). Each gift is claimed (`reminded_at`) before its
 * donor is told, with SKIP LOCKED, so several servers running the upkeep remind each donor once. The claims and the
 * notices are one transaction (decision 042): a failure of the database rolls the round back, to be run again next
 * hour; a notice that fails otherwise is logged and its gift stays claimed (a reminder is a courtesy, not a duty to
 * repeat).
 */
export async function remindWaitingDonors(services: Pick<Services, "db" | "mailer" | "config" | "log">): Promise<number> {
  const days = services.config.RECONCILE_REMINDER_DAYS;
  if (days === 0) return 0;
  return services.db.transaction(async (tx) => {
    const told = { ...services, db: tx };
    const result = await tx.execute(sql`
    with due as (
      select d.id from donations d
      where d.kind = 'cash' and d.status = 'pending' and d.reminded_at is null
        and d.created_at < now() - make_interval(days => ${days})
        and not exists (select 1 from statement_lines l where l.donation_id = d.id)
        and exists (
          select 1 from statement_imports i
          where i.ngo_id = d.recipient_ngo_id and i.method = d.method
            and i.last_day > to_char(d.created_at + interval '5 hours', 'YYYY-MM-DD')
        )
      order by d.created_at
      limit ${REMINDERS_PER_ROUND}
      for update of d skip locked
    )
    update donations g set reminded_at = now()
    from due, campaigns c, ngo_profiles n, donor_profiles dp
    where g.id = due.id and c.id = g.campaign_id and n.user_id = g.recipient_ngo_id and dp.user_id = g.donor_id
    returning g.id, g.donor_id, g.amount, g.transaction_id, c.title as campaign, n.name as ngo, n.contact_number as contact,
      dp.first_name, (select p.code from pledges p where p.id = g.pledge_id) as code`);
    const rows = (result as unknown as { rows: Claimed[] }).rows;
    for (const r of rows) {
      const params = {
        amount: formatRupees(Number(r.amount)),
        campaign: r.campaign,
        ngo: r.ngo,
        contact: r.contact,
        transactionId: r.transaction_id ?? "",
        code: r.code ? formatPledgeCode(r.code) : "",
      };
      await notify(told, {
        userId: r.donor_id,
        type: "donationNotInStatement",
        params,
        link: "/dvh",
        email: {
          subject: "reconcile:mail.reminder.subject",
          body: "reconcile:mail.reminder.body",
          params: { ...params, name: r.first_name ?? "", link: appLink(services.config, "/dvh") },
        },
      });
    }
    return rows.length;
  });
}
