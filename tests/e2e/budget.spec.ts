import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { ngoProfiles, statementImports, statementLines, statementUploads } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { matchAccount } from "#server/domain/statements/matching.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { makeApplication, makeCampaign, makeCashDonation, makePickup, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { e2ePort } from "./env.ts";
import { expect, test } from "./fixtures.ts";

/** The JavaScript budget of any one page, gzip-compressed, as the phones on slow data we build for receive it. */
const BUDGET_BYTES = 120 * 1024;
/** Loads the page and checks its JavaScript against the budget, which every page has (decision 033). */
async function expectWithinBudget(page: Page, path: string): Promise<number> {
  const bytes = await javaScriptBytes(page, path);
  expect(bytes, `${path}: ${bytes} bytes of gzipped JavaScript`).toBeLessThanOrEqual(BUDGET_BYTES);
  // Each page's figure, for the reporters that show annotations (`--reporter=json`).
  test.info().annotations.push({ type: "javascript", description: `${path} ${bytes}` });
  return bytes;
}

async function javaScriptBytes(page: Page, path: string): Promise<number> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (r: import("@playwright/test").Response) => {
    if (r.request().resourceType() === "script" || r.url().endsWith(".js")) bodies.push(r.body());
  };
  page.on("response", onResponse);
  await page.goto(path, { waitUntil: "networkidle" });
  page.off("response", onResponse);
  const all = await Promise.all(bodies);
  return all.reduce((sum, b) => sum + gzipSync(b).length, 0);
}

const PUBLIC_PAGES = [
  "/",
  "/ngo",
  "/donor",
  "/rider",
  "/ngo_signin",
  "/donor_signin",
  "/rider_signin",
  "/ngo_signup",
  "/donor_signup",
  "/rider_signup",
  "/admin_signin",
  "/forgot_password",
  "/reset_password",
  "/about",
  // The 404 page, drawn for any address no route has.
  "/no-such-page",
];
const ROLE_PAGES = {
  admin: [
    "/admin",
    "/admin/accounts",
    "/admin/audit",
    "/admin/outbox",
    "/admin/zakat",
    "/admin/spending",
    "/admin/settings",
    "/notifications",
  ],
  ngo: [
    "/ngo_home",
    "/settingsNGO",
    "/campaigns",
    "/comp_camp",
    "/create_camp",
    "/collab",
    "/collab1",
    "/ngo_map",
    "/apps",
    "/statements",
    "/reconcile",
    "/noncash_apps",
    "/donHistory",
    "/vol0",
    "/cc1",
    "/volClosed",
    "/vol1",
    "/vol2",
    "/volApproved",
    "/volRejected",
  ],
  donor: ["/donor_home", "/settingsDonor", "/donor_map", "/donate1", "/dvh", "/dvh/statements", "/vfg1", "/dvh2"],
  rider: ["/rider_home", "/rider_profile"],
} as const;

test("every public page stays within the JavaScript budget", async ({ page }) => {
  for (const path of PUBLIC_PAGES) {
    const bytes = await expectWithinBudget(page, path);
    expect(bytes, `${path} loaded no JavaScript at all`).toBeGreaterThan(0);
  }
});

for (const [role, pages] of Object.entries(ROLE_PAGES)) {
  test(`every ${role} page stays within the JavaScript budget`, async ({ page, login }) => {
    await login({ role: role as keyof typeof ROLE_PAGES });
    for (const path of pages) {
      await expectWithinBudget(page, path);
    }
  });
}

test("the donation flow's pages stay within the JavaScript budget", async ({ page, login, db, account }) => {
  const ngo = await account({ role: "ngo" });
  await db.update(ngoProfiles).set({ jazzcashNumber: "03001234567" }).where(eq(ngoProfiles.userId, ngo.id));
  const campaign = await makeCampaign(db, ngo.id);
  await login({ role: "donor" });
  for (const path of [
    `/donate1?campaign=${campaign.slug}`,
    `/donate2?campaign=${campaign.slug}`,
    `/donate3?campaign=${campaign.slug}&ngo=${ngo.id}&method=jazzcash`,
    `/donate5?campaign=${campaign.slug}`,
    `/donate5_1?campaign=${campaign.slug}`,
  ]) {
    await expectWithinBudget(page, path);
  }
});

// The review loads the gift's history and statement checklist (donation-record.tsx) only for a gift that has them, so
// each kind is measured: a pending gift with neither, one disapproved in the dialog (its history), and one the statement
// matching tied to a line of the NGO's statement (its checklist).
test("the review dialog stays within the JavaScript budget, with and without a history or a statement match", async ({
  page,
  login,
  db,
}) => {
  const ngo = await login({ role: "ngo" });
  const donor = await makeUser(db, "donor");
  const campaign = await makeCampaign(db, ngo.id);
  const storage = createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);
  const plain = await makeCashDonation({ db, storage }, campaign, donor.id);
  const matched = await makeCashDonation({ db, storage }, campaign, donor.id, { amount: 2500 });
  const dialog = page.getByRole("dialog");

  await expectWithinBudget(page, `/apps?view=${plain.id}`);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("gift-history")).toHaveCount(0);
  await expect(dialog.getByTestId("statement-check")).toHaveCount(0);

  // Disapproved in the dialog: its history holds the sending and the disapproval with the reason.
  await dialog.getByText("Disapprove", { exact: true }).click();
  await dialog.getByLabel("Reason for disapproving (the donor will see it)").fill("No payment reached our account");
  await dialog.getByRole("button", { name: "Disapprove with this reason" }).click();
  await expect(page.getByRole("status")).toHaveText("The donation was disapproved and the donor was told the reason.");
  await expectWithinBudget(page, `/apps?view=${plain.id}`);
  await expect(dialog.getByTestId("gift-history")).toContainText("No payment reached our account");

  // A line of the NGO's statement with the gift's transaction ID, tied to it by the statement matching.
  const [imported] = await db
    .insert(statementImports)
    .values({ ngoId: ngo.id, method: "jazzcash", fileName: "statement.csv", creditLines: 1, debitLines: 0, newLines: 1 })
    .returning({ id: statementImports.id });
  await db.insert(statementLines).values({
    ngoId: ngo.id,
    method: "jazzcash",
    importId: imported!.id,
    fingerprint: crypto.randomUUID(),
    occurrence: 1,
    fileRow: 2,
    postedOn: new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10),
    amountPaisa: 250_000,
    description: "",
    sender: "TEST DONOR",
    reference: matched.transactionId!,
  });
  expect(await matchAccount(db, ngo.id, "jazzcash")).toBe(1);
  await expectWithinBudget(page, `/apps?view=${matched.id}`);
  await expect(dialog.getByTestId("statement-check")).toContainText(matched.transactionId!);
});

test("a campaign's edit, analytics, updates, words, spending, ledger and public pages stay within the JavaScript budget", async ({
  page,
  login,
  db,
  context,
}) => {
  const ngo = await login({ role: "ngo" });
  const campaign = await makeCampaign(db, ngo.id);
  for (const path of [
    `/campaigns/${campaign.id}/edit`,
    `/campaigns/${campaign.id}/analytics`,
    `/campaigns/${campaign.id}/updates`,
    `/campaigns/${campaign.id}/words`,
    `/campaigns/${campaign.id}/spending`,
    `/campaign/${campaign.slug}`,
    `/campaign/${campaign.slug}/updates`,
    `/campaign/${campaign.slug}/ledger`,
  ]) {
    await expectWithinBudget(page, path);
  }
  await context.clearCookies();
  await login({ role: "donor" });
  await expectWithinBudget(page, `/support/${campaign.slug}`);
});

test("the volunteering detail pages stay within the JavaScript budget", async ({ page, login, db, account, context }) => {
  const ngo = await login({ role: "ngo" });
  const position = await makePosition(db, ngo.id);
  const applicant = await account({ role: "donor" });
  const waiting = await makeApplication(db, position.id, applicant.id);
  const other = await account({ role: "donor" });
  const approved = await makeApplication(db, position.id, other.id, { status: "approved", decidedAt: new Date() });
  for (const path of [`/vol3?application=${waiting.id}`, `/volPSDAA?application=${approved.id}`]) {
    await expectWithinBudget(page, path);
  }
  await context.clearCookies();
  await login({ role: "donor" });
  for (const path of [`/vfg2?position=${position.id}`, `/vfg3?position=${position.id}`]) {
    await expectWithinBudget(page, path);
  }
});

// The pick-up dialog draws every request's steps with the same code: a new request, and one cancelled in the dialog.
test("the pick-up dialog stays within the JavaScript budget, new and with its steps", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const donor = await makeUser(db, "donor");
  const campaign = await makeCampaign(db, ngo.id);
  const { donation } = await makePickup(db, campaign, donor.id);
  const dialog = page.getByRole("dialog");
  await expectWithinBudget(page, `/noncash_apps?view=${donation.id}`);
  await dialog.getByText("Cancel request", { exact: true }).click();
  await dialog.getByLabel("Reason for cancelling (the donor will see it)").fill("We have enough blankets");
  await dialog.getByRole("button", { name: "Cancel with this reason" }).click();
  await expect(page.getByRole("status")).toHaveText("The request was cancelled and the donor was told the reason.");
  await expectWithinBudget(page, `/noncash_apps?view=${donation.id}`);
  await expect(dialog).toContainText("This request was cancelled.");
  await expect(dialog).toContainText("We have enough blankets");
});

// The pages reached from a record (a link in a list, a redirect after a form), which the lists above do not name.
test("the pages reached from a record stay within the JavaScript budget", async ({ page, login, db, account, context }) => {
  const ngo = await login({ role: "ngo" });
  const own = await makeCampaign(db, ngo.id);
  const other = await account({ role: "ngo" });
  const theirs = await makeCampaign(db, other.id);
  // A statement whose layout is new to the NGO: the column step.
  const [upload] = await db
    .insert(statementUploads)
    .values({
      ngoId: ngo.id,
      method: "jazzcash",
      fileName: "statement.csv",
      content: Buffer.from("Date,Amount,Reference,Sender\n01/11/2026,2500,TX1,Ali\n"),
    })
    .returning({ id: statementUploads.id });
  for (const path of [
    `/statements/columns?upload=${upload!.id}`,
    `/campaigns/${own.id}/delete`,
    `/collab/join/${theirs.id}`,
    `/ngo/${ngo.id}`,
  ]) {
    await expectWithinBudget(page, path);
  }

  await context.clearCookies();
  await login({ role: "admin" });
  await expectWithinBudget(page, `/admin/ngos/${ngo.id}/checks`);

  await context.clearCookies();
  const donor = await login({ role: "donor" });
  const storage = createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);
  const cash = await makeCashDonation({ db, storage }, own, donor.id, { status: "rejected", rejectionReason: "Not received" });
  const { donation: goods } = await makePickup(db, own, donor.id);
  for (const path of [`/donate4?donation=${cash.id}`, `/dvh/reply?donation=${cash.id}`, `/donate6?donation=${goods.id}`]) {
    await expectWithinBudget(page, path);
  }

  // A rejected account's page to correct its details and send them again.
  await context.clearCookies();
  const rider = await account({ role: "rider", verification: "rejected" });
  const { token } = await createSession(db, rider.id);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
  await expectWithinBudget(page, "/resubmit");
});

test("the queues fetch their dialog's code when a record is opened, not with the list", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const donor = await makeUser(db, "donor");
  const campaign = await makeCampaign(db, ngo.id);
  const storage = createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);
  await makeCashDonation({ db, storage }, campaign, donor.id);
  await makePickup(db, campaign, donor.id);
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith(".js")) scripts.push(r.url());
  });
  for (const [path, chunk] of [
    ["/apps", /\/donation-review-[\w-]+\.js$/],
    ["/noncash_apps", /\/pickup-review-[\w-]+\.js$/],
  ] as const) {
    await page.goto(path, { waitUntil: "networkidle" });
    expect(
      scripts.filter((url) => chunk.test(url)),
      `${path} fetched its dialog with the list`,
    ).toEqual([]);
    await page.getByRole("link", { name: /^View/ }).first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(scripts.filter((url) => chunk.test(url))).toHaveLength(1);
  }
});

test("the review fetches the gift's history and statement checklist only for a gift that has them", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const donor = await makeUser(db, "donor");
  const campaign = await makeCampaign(db, ngo.id);
  const storage = createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);
  const plain = await makeCashDonation({ db, storage }, campaign, donor.id);
  // Disapproved: its history holds the sending and the disapproval.
  const decided = await makeCashDonation({ db, storage }, campaign, donor.id, { status: "rejected", rejectionReason: "Not received" });
  const record = /\/donation-record-[\w-]+\.js$/;
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith(".js")) scripts.push(r.url());
  });
  await page.goto(`/apps?view=${plain.id}`, { waitUntil: "networkidle" });
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(scripts.filter((url) => record.test(url))).toEqual([]);
  await page.goto(`/apps?view=${decided.id}`, { waitUntil: "networkidle" });
  await expect(page.getByRole("dialog").getByTestId("gift-history")).toContainText("Not received");
  expect(scripts.filter((url) => record.test(url))).toHaveLength(1);
});
