import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { spendingRecords } from "#server/db/schema.ts";
import { LANG_COOKIE } from "#shared/i18n/i18n.ts";
import { signIn, withWholeApp, type TestApp } from "#tests/helpers/app.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { makeHostilePdf, makeSpending } from "#tests/helpers/ledger.ts";
import type { TestServices } from "#tests/helpers/services.ts";

/**
 * The ledger through the real server: the spending screen's access and its forms, the documents' access matrix
 * (private while a draft, public once published), and the public pages with no anonymous donor's name in them.
 */
let s: TestServices;
let t: TestApp;

withWholeApp((app) => ({ s, t } = app));

async function cast() {
  const owner = await makeUser(s.db, "ngo", { name: "Roshni Trust" });
  const partner = await makeUser(s.db, "ngo", { name: "Saaya Foundation" });
  const stranger = await makeUser(s.db, "ngo");
  const donor = await makeUser(s.db, "donor");
  const rider = await makeUser(s.db, "rider");
  const admin = await makeUser(s.db, "admin");
  const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
  const cookies = {
    owner: await signIn(s.db, owner.id),
    partner: await signIn(s.db, partner.id),
    stranger: await signIn(s.db, stranger.id),
    donor: await signIn(s.db, donor.id),
    rider: await signIn(s.db, rider.id),
    admin: await signIn(s.db, admin.id),
    signedOut: null,
  };
  return { owner, partner, stranger, donor, campaign, cookies };
}

describe("a spending document's access matrix", () => {
  it("is read only by the campaign's NGOs while a draft, and by anyone once published", async () => {
    const { campaign, cookies } = await cast();
    const draft = await makeSpending(s, campaign);
    const status = async (key: string) =>
      Object.fromEntries(
        await Promise.all(
          Object.entries(cookies).map(async ([who, cookie]) => [who, (await t.request(`/files/${key}`, { cookie })).status]),
        ),
      );
    expect(await status(draft.documentKey)).toEqual({
      owner: 200,
      partner: 200,
      stranger: 404,
      donor: 404,
      rider: 404,
      admin: 404,
      signedOut: 404,
    });
    await s.db
      .update(spendingRecords)
      .set({ status: "published", publishedAt: new Date(), publishedBy: campaign.ownerId, redactionConfirmedAt: new Date() })
      .where(eq(spendingRecords.id, draft.id));
    expect(await status(draft.documentKey)).toEqual({
      owner: 200,
      partner: 200,
      stranger: 200,
      donor: 200,
      rider: 200,
      admin: 200,
      signedOut: 200,
    });
  });
});

describe("the administrator's takedown (/admin/spending)", () => {
  it("opens for the administrator only; the form takes a published record down with a reason; its document is then refused to all but the administrator and the campaign's NGOs", async () => {
    const { campaign, cookies } = await cast();
    const record = await makeSpending(s, campaign, { status: "published", purpose: "Invoice that shows a CNIC" });
    const status = async (path: string, init: { method?: string; body?: URLSearchParams } = {}) =>
      Object.fromEntries(
        await Promise.all(Object.entries(cookies).map(async ([who, cookie]) => [who, (await t.request(path, { ...init, cookie })).status])),
      );
    // The screen: the administrator's; every other account is turned away by the area's guard, the signed-out sent to sign in.
    expect(await status("/admin/spending")).toEqual({
      owner: 303,
      partner: 303,
      stranger: 303,
      donor: 303,
      rider: 303,
      admin: 200,
      signedOut: 303,
    });
    // The form, posted by anyone but the administrator, changes nothing.
    const post = (reason: string, cookie: string | null) =>
      t.request("/admin/spending", {
        method: "POST",
        body: new URLSearchParams({ intent: "takeDown", recordId: record.id, reason }),
        cookie,
      });
    for (const who of ["owner", "partner", "stranger", "donor", "rider", "signedOut"] as const) {
      expect((await post("Abusive", cookies[who])).status, who).toBe(303);
    }
    const read = async () => (await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, record.id)))[0]!;
    expect((await read()).status).toBe("published");
    // A blank reason is refused under its field.
    const blank = await t.request("/admin/spending", {
      method: "POST",
      body: new URLSearchParams({ intent: "takeDown", recordId: record.id, reason: "  " }),
      cookie: cookies.admin,
      headers: { accept: "text/html" },
    });
    expect(blank.status).toBe(400);
    expect(await blank.text()).toContain("Say why the entry is taken down");
    expect((await read()).status).toBe("published");

    expect(await status(`/files/${record.documentKey}`)).toEqual({
      owner: 200,
      partner: 200,
      stranger: 200,
      donor: 200,
      rider: 200,
      admin: 200,
      signedOut: 200,
    });
    expect((await post("The invoice shows a donor's CNIC.", cookies.admin)).status).toBe(302);
    expect(await read()).toMatchObject({ status: "taken_down", takedownReason: "The invoice shows a donor's CNIC." });
    expect(await status(`/files/${record.documentKey}`)).toEqual({
      owner: 200,
      partner: 200,
      stranger: 404,
      donor: 404,
      rider: 404,
      admin: 200,
      signedOut: 404,
    });
    // The public ledger says when it was removed, and nothing of what it said, in both languages.
    for (const path of [`/campaign/${campaign.slug}/ledger`, `/campaign/${campaign.slug}/ledger.data`, `/campaign/${campaign.slug}`]) {
      const body = await (await t.request(path)).text();
      expect(body, path).not.toContain("Invoice that shows a CNIC");
      expect(body, path).not.toContain(record.documentKey);
    }
    const html = await (await t.request(`/campaign/${campaign.slug}/ledger`)).text();
    expect(html).toContain("Removed by the platform administrator on");
    const ur = await (await t.request(`/campaign/${campaign.slug}/ledger`, { headers: { cookie: `${LANG_COOKIE}=ur` } })).text();
    expect(ur).toContain("پلیٹ فارم کے منتظم نے");
    // The NGO's screen says so, with the reason.
    const ngo = await (await t.request(`/campaigns/${campaign.id}/spending`, { cookie: cookies.owner })).text();
    expect(ngo).toContain("The invoice shows a donor&#x27;s CNIC.");
  });
});

describe("/campaigns/:id/spending", () => {
  it("opens for the campaign's NGOs; another NGO finds no such page", async () => {
    const { campaign, cookies } = await cast();
    const path = `/campaigns/${campaign.id}/spending`;
    expect((await t.request(path, { cookie: cookies.owner })).status).toBe(200);
    expect((await t.request(path, { cookie: cookies.partner })).status).toBe(200);
    expect((await t.request(path, { cookie: cookies.stranger })).status).toBe(404);
    expect((await t.request(`/campaigns/not-a-uuid/spending`, { cookie: cookies.owner })).status).toBe(404);
  });

  it("records a draft with a PDF made safe, refuses publishing without the statement, then publishes", async () => {
    const { campaign, cookies, owner } = await cast();
    const path = `/campaigns/${campaign.id}/spending`;
    const form = new FormData();
    form.set("intent", "write");
    form.set("fund", "zakat");
    form.set("amount", "Rs. 12,000");
    form.set("spentOn", "2026-03-10");
    form.set("purpose", "Ration bags from Al-Madina Traders");
    form.set("document", new File([new Uint8Array(makeHostilePdf())], "invoice.pdf", { type: "application/pdf" }));
    const saved = await t.request(path, { method: "POST", body: form, cookie: cookies.owner });
    expect(saved.status).toBe(302);
    const [row] = await s.db.select().from(spendingRecords).where(eq(spendingRecords.ngoId, owner.id));
    expect(row).toMatchObject({ status: "draft", fund: "zakat", amount: 12_000, spentOn: "2026-03-10" });
    const stored = (await s.storage.get(row!.documentKey))!.toString("latin1");
    expect(stored).not.toContain("/JavaScript");
    expect(stored).not.toContain("/EmbeddedFile");

    // A form that is not right changes nothing and says why, under its field.
    const bad = new FormData();
    for (const [k, v] of form.entries()) bad.set(k, v);
    bad.set("amount", "0");
    const refused = await t.request(path, { method: "POST", body: bad, cookie: cookies.owner, headers: { accept: "text/html" } });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("The amount must be at least Rs. 1.");

    const publish = (body: Record<string, string>, cookie: string) =>
      t.request(path, { method: "POST", body: new URLSearchParams({ intent: "publish", recordId: row!.id, ...body }), cookie });
    expect((await publish({}, cookies.owner)).status).toBe(400);
    expect((await publish({ confirmRedacted: "on" }, cookies.partner)).status).toBe(403);
    expect((await publish({ confirmRedacted: "on" }, cookies.stranger)).status).toBe(404);
    expect((await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, row!.id)))[0]!.status).toBe("draft");
    expect((await publish({ confirmRedacted: "on" }, cookies.owner)).status).toBe(302);
    expect((await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, row!.id)))[0]!.status).toBe("published");
    expect((await t.request(`/files/${row!.documentKey}`)).status).toBe(200);
  });
});

describe("the public ledger", () => {
  it("shows balances and entries on the campaign's page and the ledger page, with no anonymous donor's name in the HTML, its data or its share tags", async () => {
    const { campaign } = await cast();
    const named = await makeUser(s.db, "donor", { name: "Farah Visible" });
    const hidden = await makeUser(s.db, "donor", { name: "Zubair Anonymous" });
    await makeDonation(s.db, campaign, named.id, {
      amount: 700,
      status: "approved",
      showName: true,
      fund: "sadaqah",
      decidedAt: new Date(),
    });
    await makeDonation(s.db, campaign, hidden.id, {
      amount: 900,
      status: "approved",
      showName: false,
      fund: "zakat",
      decidedAt: new Date(),
    });
    await makeSpending(s, campaign, { fund: "zakat", amount: 1_500, status: "published", purpose: "School fees for two girls" });
    await makeSpending(s, campaign, { fund: "zakat", amount: 99_999, purpose: "An unpublished draft" });

    for (const path of [
      `/campaign/${campaign.slug}`,
      `/campaign/${campaign.slug}.data`,
      `/campaign/${campaign.slug}/ledger`,
      `/campaign/${campaign.slug}/ledger.data`,
    ]) {
      const res = await t.request(path);
      expect(res.status, path).toBe(200);
      const body = await res.text();
      expect(body, path).not.toContain("Zubair");
      expect(body, path).not.toContain(hidden.email);
      expect(body, path).toContain("Farah Visible");
      expect(body, path).toContain("School fees for two girls");
      expect(body, path).not.toContain("An unpublished draft");
    }
    const html = await (await t.request(`/campaign/${campaign.slug}`)).text();
    // Zakat: 900 raised, 1,500 spent, balance below zero.
    expect(html).toMatch(/data-fund="zakat"[\s\S]*?Rs\. 900[\s\S]*?Rs\. 1,500[\s\S]*?−Rs\. 600/);
    expect(html).toContain(">Anonymous<");
    // In Urdu too.
    const ur = await (await t.request(`/campaign/${campaign.slug}`, { headers: { cookie: `${LANG_COOKIE}=ur` } })).text();
    expect(ur).toContain("عوامی کھاتہ");
    expect(ur).toContain("گمنام");
    expect(ur).not.toContain("Zubair");
  });

  it("is not found for an unknown or deleted campaign", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const archived = await makeCampaign(s.db, ngo.id, { status: "archived", archivedAt: new Date() });
    expect((await t.request(`/campaign/${archived.slug}/ledger`)).status).toBe(404);
    expect((await t.request(`/campaign/no-such-campaign/ledger`)).status).toBe(404);
  });
});
