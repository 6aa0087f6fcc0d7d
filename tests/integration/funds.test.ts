import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaigns, donations, zakatAttestations } from "#server/db/schema.ts";
import { createCampaign, parseCampaign, updateCampaign } from "#server/domain/campaigns/campaigns.ts";
import { attestationLog, attestationStatement } from "#server/domain/campaigns/funds.ts";
import { decideCashDonation, submitCashDonation } from "#server/domain/donations/cash.ts";
import { ngoHistoryCsv, ngoHistoryTotals, parseNgoHistoryFilter } from "#server/domain/donations/history.ts";
import { tallies, tallyDrift } from "#server/domain/donations/tallies.ts";
import { offerGoods } from "#server/domain/pickups/pickups.ts";
import type { CampaignInput } from "#shared/forms/campaigns.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { acceptedFundsOf, FUND_KINDS, type FundKind } from "#shared/statuses.ts";
import { fundBadges } from "#shared/fund-badges.ts";
import { asAdmin, asDonor, asNgo } from "#tests/helpers/actors.ts";
import {
  changedTables,
  createTestApp,
  databaseFingerprint,
  loadServerBuild,
  signIn,
  type LoadedBuild,
  type TestApp,
} from "#tests/helpers/app.ts";
import { givePaymentAccounts, makeCampaign, makeCashDonation, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { failure } from "#tests/helpers/failure.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * Funds (decision 048): what a campaign takes, the NGO's Zakat attestation, the refusal of a gift to a fund the
 * campaign does not take (at the gift and again at approval), totals per fund, and anonymity in public responses.
 */
let s: TestServices;
let loaded: LoadedBuild | undefined;
let built: TestApp | undefined;

beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => {
  await loaded?.close();
  await s?.close();
});

/** The whole app, loaded once by the first test that sends it requests (the build takes seconds). */
async function app(): Promise<TestApp> {
  if (!built) {
    loaded = await loadServerBuild();
    built = createTestApp(s, loaded.build);
  }
  return built;
}
/** The tests that load the app: the build alone may take minutes on a busy machine. */
const WITH_APP = 300_000;

const tag = () => Math.random().toString(36).slice(2, 8);

function input(overrides: Partial<Record<keyof CampaignInput, unknown>> = {}): CampaignInput {
  return {
    title: `Zakat for flood families ${tag()}`,
    description: "Rations and rent for families who lost their homes.",
    targetAmount: "500000",
    location: "Lahore",
    cause: "relief",
    ...overrides,
  } as CampaignInput;
}

async function attestations(campaignId: string) {
  return s.db.select().from(zakatAttestations).where(eq(zakatAttestations.campaignId, campaignId)).orderBy(zakatAttestations.attestedAt);
}

/** The proof form's values, as the route passes them after parsing. */
async function proof(
  campaign: { slug: string },
  ngoId: string,
  values: { fund: FundKind; amount?: number; showName?: "yes"; inNameOf?: string },
) {
  return {
    campaign: campaign.slug,
    ngo: ngoId,
    method: "jazzcash" as const,
    idempotencyKey: randomUUID(),
    phone: "03001234567",
    amount: values.amount ?? 5000,
    screenshot: new File([new Uint8Array(await makeProofPng())], "p.png", { type: "image/png" }),
    transactionId: `TX${tag().toUpperCase()}9`,
    fund: values.fund,
    showName: values.showName,
    inNameOf: values.inNameOf,
  };
}

const goods = (campaign: { slug: string }, ngoId: string, fund: FundKind) => ({
  campaign: campaign.slug,
  ngo: ngoId,
  idempotencyKey: randomUUID(),
  phone: "03001234567",
  items: "Ten blankets",
  address: "House 4, Street 9",
  area: "Gulberg, Lahore",
  areaLat: undefined,
  areaLng: undefined,
  windowDate: new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10),
  windowSlot: "morning" as const,
  fund,
});

describe("a campaign's funds and the Zakat attestation", () => {
  it("needs the attestation to take Zakat, keeps its words, account and time, and keeps history when withdrawn and given again", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const actor = asNgo(ngo.id);
    expect(() => parseCampaign(input({ funds: ["zakat"] }))).toThrow();
    expect(await failure(Promise.resolve().then(() => parseCampaign(input({ funds: "zakat" }))))).toMatchObject({
      kind: "invalid",
      field: "zakatAttest",
      message: "funds:errors.attestRequired",
    });

    const made = await createCampaign(s, actor, parseCampaign(input({ funds: ["zakat", "fitrana"], zakatAttest: "yes" })), "ur");
    expect(made.acceptedFunds).toEqual(["zakat", "fitrana", "general"]);
    const [first] = await attestations(made.id);
    expect(first).toMatchObject({
      attestedBy: ngo.id,
      lang: "ur",
      statement: attestationStatement("ur"),
      withdrawnAt: null,
      carriedOver: false,
    });
    expect(first!.statement).toBe(serverI18n("ur").t("funds:attestation.statement"));

    // Saving again with Zakat keeps the one attestation; leaving Zakat out withdraws it, by this account.
    const edit = (funds: string[], attest?: "yes") =>
      updateCampaign(s, actor, made.id, parseCampaign(input({ title: made.title, funds, zakatAttest: attest })), "en");
    await edit(["zakat", "fitrana"], "yes");
    expect(await attestations(made.id)).toHaveLength(1);
    const withdrawn = await edit(["sadaqah"]);
    expect(withdrawn.acceptedFunds).toEqual(["sadaqah", "general"]);
    const [after] = await attestations(made.id);
    expect(after).toMatchObject({ withdrawnBy: ngo.id });
    expect(after!.withdrawnAt).toBeInstanceOf(Date);

    // Attesting again is a new row; the withdrawn one stays as history.
    const again = await edit(["zakat"], "yes");
    expect(again.acceptedFunds).toEqual(["zakat", "general"]);
    const rows = await attestations(made.id);
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.withdrawnAt === null)).toHaveLength(1);
    expect(rows[1]).toMatchObject({ lang: "en", statement: attestationStatement("en") });

    // The database holds one current attestation per campaign, and every campaign takes general.
    await expect(
      s.db.insert(zakatAttestations).values({ campaignId: made.id, statement: "x", lang: "en", attestedBy: ngo.id }),
    ).rejects.toThrow();
    await expect(
      s.db
        .update(campaigns)
        .set({ acceptedFunds: ["zakat"] })
        .where(eq(campaigns.id, made.id)),
    ).rejects.toThrow();
  });

  it(
    "shows the admin who attested what and when, newest first, and nobody else",
    async () => {
      const ngoName = `Attesting NGO ${tag()}`;
      const ngo = await makeUser(s.db, "ngo", { name: ngoName });
      const admin = await makeUser(s.db, "admin");
      const c = await createCampaign(s, asNgo(ngo.id), parseCampaign(input({ funds: ["zakat"], zakatAttest: "yes" })));
      await updateCampaign(s, asNgo(ngo.id), c.id, parseCampaign(input({ title: c.title, funds: [] })));
      const log = await attestationLog(s.db, asAdmin(admin.id), { page: 1 });
      const mine = log.rows.filter((r) => r.campaignId === c.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ ngoName, campaignTitle: c.title, statement: attestationStatement("en") });
      expect(mine[0]!.withdrawnAt).toBeInstanceOf(Date);
      expect(log.rows.map((r) => r.attestedAt.getTime())).toEqual([...log.rows.map((r) => r.attestedAt.getTime())].sort((a, b) => b - a));
      expect(log.rows.length).toBeLessThanOrEqual(20);
      expect(await failure(attestationLog(s.db, asNgo(ngo.id), { page: 1 }))).toMatchObject({ kind: "not_found" });

      const t = await app();
      const page = await t.request("/admin/zakat", { cookie: await signIn(s.db, admin.id) });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(c.title);
      expect((await t.request("/admin/zakat", { cookie: await signIn(s.db, ngo.id) })).status).not.toBe(200);
    },
    WITH_APP,
  );

  it("writes a card's fund badges in the reader's language: Zakat first as accepted, no badge for general", () => {
    const en = serverI18n("en").t;
    const ur = serverI18n("ur").t;
    expect(fundBadges(["zakat", "sadaqah", "fitrana", "general"], en)).toEqual([
      { fund: "zakat", label: "Accepts Zakat" },
      { fund: "sadaqah", label: "Sadaqah" },
      { fund: "fitrana", label: "Fitrana" },
    ]);
    expect(fundBadges(["zakat", "general"], ur)).toEqual([{ fund: "zakat", label: "زکوٰۃ قبول کی جاتی ہے" }]);
    expect(fundBadges(["general"], en)).toEqual([]);
  });

  it("derives accepted funds in one order, general always", () => {
    expect(acceptedFundsOf([])).toEqual(["general"]);
    expect(acceptedFundsOf(["fitrana", "zakat", "zakat"])).toEqual(["zakat", "fitrana", "general"]);
  });
});

describe("a gift's fund", () => {
  async function scene(funds: FundKind[]) {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    await givePaymentAccounts(s.db, ngo.id);
    const campaign = await makeCampaign(s.db, ngo.id, { acceptedFunds: funds });
    return { ngo, donor, campaign };
  }

  it("refuses Zakat (cash or goods) to a campaign that does not take it, with a clear message, changing nothing", async () => {
    const { ngo, donor, campaign } = await scene(["sadaqah", "general"]);
    const before = await databaseFingerprint(s.db);
    expect(await failure(submitCashDonation(s, asDonor(donor.id), await proof(campaign, ngo.id, { fund: "zakat" })))).toEqual({
      kind: "invalid",
      field: "fund",
      message: "funds:errors.notAccepted",
    });
    expect(await failure(offerGoods(s, asDonor(donor.id), goods(campaign, ngo.id, "zakat")))).toMatchObject({
      kind: "invalid",
      field: "fund",
      message: "funds:errors.notAccepted",
    });
    expect(await failure(submitCashDonation(s, asDonor(donor.id), await proof(campaign, ngo.id, { fund: "fitrana" })))).toMatchObject({
      field: "fund",
    });
    expect(changedTables(before, await databaseFingerprint(s.db))).toEqual([]);
    expect(serverI18n("en").t("funds:errors.notAccepted")).toMatch(/does not accept/);
  });

  it("keeps the donor's fund, shown name and in-whose-name on a gift to a campaign that takes it", async () => {
    const { ngo, donor, campaign } = await scene(["zakat", "general"]);
    const cash = await submitCashDonation(
      s,
      asDonor(donor.id),
      await proof(campaign, ngo.id, { fund: "zakat", showName: "yes", inNameOf: "Late Mrs Khadija Bibi" }),
    );
    const offered = await offerGoods(s, asDonor(donor.id), goods(campaign, ngo.id, "zakat"));
    const rows = await s.db
      .select({ id: donations.id, fund: donations.fund, showName: donations.showName, inNameOf: donations.inNameOf })
      .from(donations)
      .where(eq(donations.campaignId, campaign.id));
    expect(rows.find((r) => r.id === cash.id)).toMatchObject({ fund: "zakat", showName: true, inNameOf: "Late Mrs Khadija Bibi" });
    expect(rows.find((r) => r.id === offered.id)).toMatchObject({ fund: "zakat", showName: false, inNameOf: null });
  });

  it("refuses to approve a Zakat gift once the campaign stopped taking Zakat, until the NGO attests again", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    await givePaymentAccounts(s.db, ngo.id);
    const actor = asNgo(ngo.id);
    const c = await createCampaign(s, actor, parseCampaign(input({ funds: ["zakat"], zakatAttest: "yes" })));
    const gift = await submitCashDonation(s, asDonor(donor.id), await proof(c, ngo.id, { fund: "zakat", amount: 7000 }));
    const general = await submitCashDonation(s, asDonor(donor.id), await proof(c, ngo.id, { fund: "general", amount: 300 }));
    await updateCampaign(s, actor, c.id, parseCampaign(input({ title: c.title, funds: [] })));

    expect(await failure(decideCashDonation(s, actor, { donationId: gift.id, approve: true }))).toMatchObject({
      kind: "conflict",
      message: "funds:errors.noLongerAccepted",
    });
    const [still] = await s.db.select().from(donations).where(eq(donations.id, gift.id));
    expect(still).toMatchObject({ status: "pending", receiptNumber: null });
    expect((await s.db.select().from(campaigns).where(eq(campaigns.id, c.id)))[0]!.collectedAmount).toBe(0);
    // A general gift is approved as ever.
    expect((await decideCashDonation(s, actor, { donationId: general.id, approve: true })).status).toBe("approved");

    await updateCampaign(s, actor, c.id, parseCampaign(input({ title: c.title, funds: ["zakat"], zakatAttest: "yes" })));
    expect((await decideCashDonation(s, actor, { donationId: gift.id, approve: true })).status).toBe("approved");
    expect(await tallyDrift(s.db)).toEqual([]);
  });
});

describe("totals per fund", () => {
  it("equal the sum of approved gifts of each fund, in the tallies, the NGO's history and its CSV", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const c = await makeCampaign(s.db, ngo.id, { acceptedFunds: [...FUND_KINDS], targetAmount: 10_000_000 });
    const plan: [FundKind, number, boolean][] = [
      ["zakat", 5000, true],
      ["zakat", 2500, true],
      ["sadaqah", 1200, true],
      ["fitrana", 300, false],
      ["general", 999, true],
      ["zakat", 40, false],
    ];
    for (const [fund, amount, approve] of plan) {
      const d = await makeCashDonation(s, c, donor.id, { amount, fund, inNameOf: fund === "zakat" ? "Abbu ji" : null });
      if (approve) await decideCashDonation(s, asNgo(ngo.id), { donationId: d.id, approve: true });
    }
    const approvedOf = (fund: FundKind) => plan.filter(([f, , a]) => f === fund && a).reduce((sum, [, n]) => sum + n, 0);

    const kept = await tallies(s.db, ngo.id, { kind: "cash", campaignId: c.id });
    for (const fund of FUND_KINDS) {
      const sum = kept.filter((r) => r.fund === fund && r.status === "approved").reduce((acc, r) => acc + r.amount, 0);
      expect(sum, fund).toBe(approvedOf(fund));
    }
    const totals = await ngoHistoryTotals(s.db, asNgo(ngo.id), parseNgoHistoryFilter(new URLSearchParams(`campaign=${c.id}`)));
    expect(Object.fromEntries(totals.byFund.map((f) => [f.fund, f.approvedAmount]))).toEqual({
      zakat: 7500,
      sadaqah: 1200,
      fitrana: 0,
      general: 999,
    });
    expect(totals.byFund.find((f) => f.fund === "zakat")).toMatchObject({ n: 3, pendingAmount: 40 });
    expect(await tallyDrift(s.db)).toEqual([]);

    const en = serverI18n("en").t;
    const csv = await new Response(
      ngoHistoryCsv(s.db, asNgo(ngo.id), parseNgoHistoryFilter(new URLSearchParams(`campaign=${c.id}`)), en),
    ).text();
    const [head, ...lines] = csv
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(head).toContain(`"${en("funds:csv.fund")}","${en("funds:csv.showName")}","${en("funds:csv.inNameOf")}"`);
    expect(lines.filter((l) => l.includes(`"${en("funds:kinds.zakat")}","${en("funds:csv.no")}","Abbu ji"`))).toHaveLength(3);
  });

  it("stay per fund when a gift's fund is changed or removed in bulk (the triggers' fund key)", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const c = await makeCampaign(s.db, ngo.id, { acceptedFunds: [...FUND_KINDS] });
    for (const fund of FUND_KINDS) await makeCashDonation(s, c, donor.id, { fund, amount: 100 });
    await s.db
      .update(donations)
      .set({ fund: "sadaqah" })
      .where(and(eq(donations.campaignId, c.id), sql`${donations.fund} <> 'general'`));
    expect(await tallyDrift(s.db)).toEqual([]);
    const rows = await tallies(s.db, ngo.id, { campaignId: c.id });
    expect(rows.map((r) => [r.fund, r.n])).toEqual(
      expect.arrayContaining([
        ["sadaqah", 3],
        ["general", 1],
      ]),
    );
    await s.db.delete(donations).where(eq(donations.campaignId, c.id));
    expect(await tallyDrift(s.db)).toEqual([]);
  });
});

describe("anonymity in public responses", () => {
  it(
    "never names an anonymous donor on the public page, its data, its share tags or another NGO's export",
    async () => {
      const ngo = await makeUser(s.db, "ngo");
      const other = await makeUser(s.db, "ngo");
      const secret = `Qamarunnisa${tag()}`;
      const donor = await makeUser(s.db, "donor", { name: secret });
      const c = await makeCampaign(s.db, ngo.id, { acceptedFunds: ["zakat", "general"] });
      for (const fund of ["zakat", "general"] as const) {
        const d = await makeCashDonation(s, c, donor.id, { fund, amount: 2500, showName: false, inNameOf: `${secret} senior` });
        await decideCashDonation(s, asNgo(ngo.id), { donationId: d.id, approve: true });
      }
      // A gift to another NGO by the same donor, to prove the other NGO's export is read.
      const theirs = await makeCampaign(s.db, other.id);
      await makeCashDonation(s, theirs, donor.id, { amount: 10 });

      const t = await app();
      const leaks = (text: string) => [secret, donor.email].filter((needle) => text.includes(needle));
      const page = await t.request(`/campaign/${c.slug}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(c.title);
      expect(leaks(html)).toEqual([]);
      // The share tags are in the page's head: checked with the page, and on their own.
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head).toContain('property="og:title"');
      expect(leaks(head)).toEqual([]);
      for (const lang of ["en", "ur"]) {
        const data = await t.request(`/campaign/${c.slug}.data`, { headers: { cookie: `ekc_lang=${lang}` } });
        expect(data.status).toBe(200);
        expect(leaks(await data.text())).toEqual([]);
      }

      // Another NGO's CSV holds its own gifts only; the donor's gifts to this campaign are not in it.
      const csv = await t.request("/donHistory/export", { cookie: await signIn(s.db, other.id) });
      expect(csv.status).toBe(200);
      const text = await csv.text();
      expect(text).not.toContain(`${secret} senior`);
      expect(text).not.toContain(c.title);
    },
    WITH_APP,
  );
});
