import { and, eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import type { Db } from "#server/db/client.ts";
import { files, users, volunteerApplications } from "#server/db/schema.ts";
import { makeApplication, makePdf, makePosition, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 8);

const MOTIVATION_REQUIRED = "Please tell the NGO why you want to volunteer.";
const RESUME_NOT_PDF = "The resume must be a PDF file.";
const ALREADY_APPLIED = "You have already applied to this position.";
const NO_LONGER = "This position is no longer taking applications.";

/** A verified NGO with a name of its own (the name is what donors search by). */
async function ngo(db: Db, name: string) {
  const user = await makeUser(db, "ngo", { name });
  return { ...user, name };
}

const applicationsOf = (db: Db, donorId: string) =>
  db.select().from(volunteerApplications).where(eq(volunteerApplications.donorId, donorId));
const resumeFilesOf = (db: Db, donorId: string) =>
  db
    .select()
    .from(files)
    .where(and(eq(files.ownerId, donorId), eq(files.kind, "resume")));

const pdfUpload = () => ({ name: "cv.pdf", mimeType: "application/pdf", buffer: makePdf("My resume") });

const cards = (page: Page) =>
  page
    .getByRole("list", { name: "Open positions" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading") });

async function search(page: Page, q: string) {
  await page.getByRole("searchbox", { name: "Search by title, NGO or city" }).fill(q);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(`/vfg1?${new URLSearchParams({ q }).toString()}`);
}

/** The field's message, tied to it by aria-describedby as the form components do. */
async function fieldMessage(page: Page, label: string) {
  const input = page.getByLabel(label);
  await expect(input).toHaveAttribute("aria-invalid", "true");
  const ids = ((await input.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
  return texts.join(" | ");
}

test.describe("browsing positions", () => {
  test("search finds open positions by title, NGO and city, never closed ones or a suspended NGO's", async ({ page, db, login }) => {
    await login({ role: "donor" });
    const tag = unique();
    const alpha = await ngo(db, `Alpha${tag} Welfare`);
    const beta = await ngo(db, `Beta${tag} Trust`);
    const suspended = await ngo(db, `Sus${tag} Foundation`);
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));

    const longDescription = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
    const byTitle = await makePosition(db, beta.id, {
      title: `Reading tutor ${tag}title`,
      description: longDescription,
      closesOn: "2099-12-31",
      volunteersNeeded: 5,
    });
    const byNgo = await makePosition(db, alpha.id, { title: `Kitchen helper ${unique()}`, duration: null });
    const byCity = await makePosition(db, beta.id, { title: `Driver ${unique()}`, cityLabel: `Chak${tag}, Punjab` });
    const remote = await makePosition(db, alpha.id, { title: `Remote ${tag}title2`, cityLabel: null, cityLat: null, cityLng: null });
    // Closed by hand, closed by its day, and open but posted by a suspended NGO: all found by their words, none shown.
    await makePosition(db, alpha.id, { title: `Reading tutor ${tag}title closed`, status: "closed", closedAt: new Date() });
    await makePosition(db, alpha.id, { title: `Reading tutor ${tag}title expired`, closesOn: "2020-01-01" });
    await makePosition(db, suspended.id, { title: `Reading tutor ${tag}title suspended` });
    // Another donor's application counts as accepted, not as "Applied" for this donor.
    const other = await makeUser(db, "donor");
    await makeApplication(db, byTitle.id, other.id, { status: "approved", decidedAt: new Date() });

    await page.goto("/vfg1");
    await expect(page.getByRole("heading", { level: 2, name: "Volunteer opportunities" })).toBeVisible();
    await expectAccessible(page);

    await search(page, `${tag}TITLE`);
    await expect(cards(page)).toHaveCount(2);
    const card = cards(page).filter({ hasText: byTitle.title });
    await expect(card.getByRole("heading")).toHaveText(byTitle.title);
    await expect(card).toContainText(`By ${beta.name}`);
    await expect(card).toContainText("Lahore, Lahore District, Punjab");
    await expect(card).toContainText("4 hours a day");
    await expect(card).toContainText("3 months");
    await expect(card).toContainText("Saturdays and Sundays, 10 am to 2 pm");
    await expect(card).toContainText("5 needed · 1 accepted");
    await expect(card).toContainText("Apply by 31 Dec 2099");
    await expect(card).toContainText(`${Array.from({ length: 20 }, (_, i) => `word${i}`).join(" ")}…`);
    await expect(card).not.toContainText("word20");
    await expect(card).not.toContainText("Applied");
    await expect(card.locator("img")).toHaveAttribute("src", "/static/default-campaign.svg");
    await expect(card.getByRole("link", { name: "Visit profile" })).toHaveAttribute("href", `/vfg2?position=${byTitle.id}`);
    const remoteCard = cards(page).filter({ hasText: remote.title });
    await expect(remoteCard).toContainText("Anywhere (remote)");
    await expect(remoteCard).toContainText("No closing date");
    await expect(page.getByText(`${tag}title closed`)).toHaveCount(0);
    await expect(page.getByText(`${tag}title expired`)).toHaveCount(0);
    await expect(page.getByText(`${tag}title suspended`)).toHaveCount(0);

    // By the NGO's name (any case): its open position only, not its closed ones.
    await search(page, `alpha${tag} welfare`);
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).filter({ hasText: byNgo.title })).toHaveCount(1);
    await expect(cards(page).filter({ hasText: byNgo.title })).not.toContainText("3 months");
    await expect(cards(page).filter({ hasText: remote.title })).toHaveCount(1);

    // By the city.
    await search(page, `chak${tag}`);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first().getByRole("heading")).toHaveText(byCity.title);
    await expect(cards(page).first()).toContainText(`Chak${tag}, Punjab`);

    // A suspended NGO's positions are not found by its name either.
    await search(page, `Sus${tag}`);
    await expect(page.getByRole("status")).toHaveText(`No open position matches “Sus${tag}”.`);
    await expect(page.getByRole("list", { name: "Open positions" })).toHaveCount(0);
    await expectAccessible(page);
    await page.getByRole("link", { name: "Show all positions" }).click();
    await expect(page).toHaveURL(/\/vfg1$/);
    await expect(page.getByRole("searchbox", { name: "Search by title, NGO or city" })).toHaveValue("");
  });

  test("the list pages ten at a time and keeps the search in the page links", async ({ page, db, login }) => {
    await login({ role: "donor" });
    const tag = unique();
    const owner = await ngo(db, `Pages ${tag} Trust`);
    const start = Date.now() - 3_600_000;
    const made = [];
    for (let i = 0; i < 12; i += 1) {
      made.push(
        await makePosition(db, owner.id, { title: `Paged ${tag} ${String(i).padStart(2, "0")}`, createdAt: new Date(start + i * 60_000) }),
      );
    }
    await page.goto(`/vfg1?q=${tag}`);
    await expect(cards(page)).toHaveCount(10);
    // Newest first.
    await expect(cards(page).first().getByRole("heading")).toHaveText(made[11]!.title);
    const pager = page.getByRole("navigation", { name: "Pages of open positions" });
    await expect(pager).toContainText("Page 1 of 2");
    await pager.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(new RegExp(`/vfg1\\?q=${tag}&page=2$`));
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).nth(0).getByRole("heading")).toHaveText(made[1]!.title);
    await expect(cards(page).nth(1).getByRole("heading")).toHaveText(made[0]!.title);
    await pager.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(new RegExp(`/vfg1\\?q=${tag}&page=1$`));
    await expect(cards(page)).toHaveCount(10);
  });

  test("a position's page shows its details, Go back and Apply; closed and unknown ones explain themselves", async ({
    page,
    db,
    login,
  }) => {
    await login({ role: "donor" });
    const owner = await ngo(db, `Detail ${unique()} Trust`);
    const position = await makePosition(db, owner.id, {
      title: `Library helper ${unique()}`,
      description: "Help us run the children's library.\nSort books and read aloud.",
      responsibilities: "Shelve returned books; run story hour.",
      closesOn: "2099-06-30",
    });
    await page.goto(`/vfg1?q=${encodeURIComponent(position.title)}`);
    await cards(page).first().getByRole("link", { name: "Visit profile" }).click();
    await expect(page).toHaveURL(`/vfg2?position=${position.id}`);

    const article = page.getByRole("article", { name: position.title });
    await expect(article.getByRole("heading", { level: 2 })).toHaveText(position.title);
    await expect(article.getByRole("img", { name: `Poster of the position “${position.title}”` })).toBeVisible();
    await expect(article.getByRole("img", { name: `Logo of ${owner.name}` })).toBeVisible();
    await expect(article).toContainText("Help us run the children's library.");
    await expect(article).toContainText("Sort books and read aloud.");
    await expect(article.getByRole("region", { name: "Responsibilities" })).toContainText("Shelve returned books; run story hour.");
    const facts = article.getByRole("region", { name: "About this position" });
    await expect(facts).toContainText(`NGO${owner.name}`);
    await expect(facts).toContainText("Working hours4 hours a day");
    await expect(facts).toContainText("Duration3 months");
    await expect(facts).toContainText("TimingsSaturdays and Sundays, 10 am to 2 pm");
    await expect(facts).toContainText("CityLahore, Lahore District, Punjab");
    await expect(facts).toContainText("Volunteers2 needed · 0 accepted");
    await expect(facts).toContainText("Closing dateApply by 30 Jun 2099");
    await expectAccessible(page);

    await article.getByRole("link", { name: "Go back" }).click();
    await expect(page).toHaveURL(/\/vfg1$/);
    await page.goto(`/vfg2?position=${position.id}`);
    await page.getByRole("link", { name: "Apply" }).click();
    await expect(page).toHaveURL(`/vfg3?position=${position.id}`);
    await expect(page.getByRole("main").getByText(position.title)).toBeVisible();
    await expect(page.getByRole("main").getByText(`By ${owner.name}`)).toBeVisible();
    await page.getByRole("link", { name: "Go back" }).click();
    await expect(page).toHaveURL(`/vfg2?position=${position.id}`);

    // Closed: no Apply, and the form is not offered either.
    const closed = await makePosition(db, owner.id, { title: `Closed helper ${unique()}`, closesOn: "2020-01-01" });
    await page.goto(`/vfg2?position=${closed.id}`);
    await expect(page.getByRole("status")).toHaveText(NO_LONGER);
    await expect(page.getByRole("link", { name: "Apply" })).toHaveCount(0);
    await page.goto(`/vfg3?position=${closed.id}`);
    await expect(page.getByRole("alert")).toHaveText(NO_LONGER);
    await expect(page.getByRole("button", { name: "Submit" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Go back" })).toHaveAttribute("href", `/vfg2?position=${closed.id}`);

    for (const id of [crypto.randomUUID(), "not-a-uuid", ""]) {
      const res = await page.goto(`/vfg2?position=${id}`);
      expect(res!.status(), id).toBe(404);
      const res3 = await page.goto(`/vfg3?position=${id}`);
      expect(res3!.status(), id).toBe(404);
    }
    // A suspended NGO's position cannot be opened by its link.
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, owner.id));
    expect((await page.goto(`/vfg2?position=${position.id}`))!.status()).toBe(404);
  });
});

test.describe("applying", () => {
  test("a donor applies with a PDF resume, sees the confirmation, and cannot apply twice", async ({ page, db, login, context }) => {
    const donor = await login({ role: "donor" });
    const owner = await ngo(db, `Apply ${unique()} Trust`);
    const position = await makePosition(db, owner.id, { title: `Clinic assistant ${unique()}` });

    await page.goto(`/vfg3?position=${position.id}`);
    await expect(page.getByRole("heading", { name: "Apply to volunteer" })).toBeVisible();
    await expect(page.getByLabel("Resume (PDF)")).toHaveAttribute("accept", "application/pdf,.pdf");
    await expect(page.getByText("Optional. PDF, at most 2 MB.")).toBeVisible();
    await expectAccessible(page);
    // A second tab with the same form, sent after the first one went through.
    const stale = await context.newPage();
    await stale.goto(`/vfg3?position=${position.id}`);

    await page.getByLabel("Why do you want to volunteer?").fill("I studied nursing and want to help.");
    await page.getByLabel("Prior experience").fill("Two summers at a free clinic.");
    await page.getByLabel("Resume (PDF)").setInputFiles(pdfUpload());
    await page.getByRole("button", { name: "Submit" }).click();

    await expect(page).toHaveURL(new RegExp(`/vfg1\\?notice=applied&position=${position.id}$`));
    await expect(page.getByRole("status")).toContainText(`Your application for “${position.title}” was sent to ${owner.name}.`);
    await expect(page.getByRole("status").getByRole("link", { name: "See your applications" })).toHaveAttribute("href", "/dvh2");
    const rows = await applicationsOf(db, donor.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      positionId: position.id,
      status: "pending",
      motivation: "I studied nursing and want to help.",
      experience: "Two summers at a free clinic.",
    });
    expect(rows[0]!.resumeKey).toMatch(/^resume\/[0-9a-f-]{36}\.pdf$/);
    const stored = await resumeFilesOf(db, donor.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ key: rows[0]!.resumeKey, contentType: "application/pdf" });

    await page.goto(`/vfg1?q=${encodeURIComponent(position.title)}`);
    await expect(cards(page).first()).toContainText("Applied");

    // The position's page now says where the application stands.
    await page.goto(`/vfg2?position=${position.id}`);
    await expect(page.getByRole("status")).toContainText("You applied on");
    await expect(page.getByRole("status")).toContainText("State of your application: Waiting for a decision");
    await expect(page.getByRole("link", { name: "See your applications" })).toHaveAttribute("href", "/dvh2");
    await expect(page.getByRole("link", { name: "Apply" })).toHaveCount(0);

    // The form is not offered again …
    await page.goto(`/vfg3?position=${position.id}`);
    await expect(page.getByRole("status")).toHaveText(ALREADY_APPLIED);
    await expect(page.getByRole("button", { name: "Submit" })).toHaveCount(0);

    // … and a form still open elsewhere is refused by the server.
    await stale.getByLabel("Why do you want to volunteer?").fill("A second try.");
    await stale.getByRole("button", { name: "Submit" }).click();
    await expect(stale.getByRole("alert")).toHaveText(`Error: ${ALREADY_APPLIED}`);
    await expect(stale).toHaveURL(`/vfg3?position=${position.id}`);
    expect(await applicationsOf(db, donor.id)).toHaveLength(1);
    expect(await resumeFilesOf(db, donor.id)).toHaveLength(1);
  });

  test("a resume that is not really a PDF is refused and nothing is stored", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const owner = await ngo(db, `Resume ${unique()} Trust`);
    const position = await makePosition(db, owner.id);
    await page.goto(`/vfg3?position=${position.id}`);
    await page.getByLabel("Why do you want to volunteer?").fill("I like helping.");
    await page.getByLabel("Resume (PDF)").setInputFiles({ name: "cv.pdf", mimeType: "application/pdf", buffer: await makeProofPng() });
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await fieldMessage(page, "Resume (PDF)")).toContain(RESUME_NOT_PDF);
    await expect(page).toHaveURL(`/vfg3?position=${position.id}`);
    // What was typed stays.
    await expect(page.getByLabel("Why do you want to volunteer?")).toHaveValue("I like helping.");
    expect(await applicationsOf(db, donor.id)).toHaveLength(0);
    expect(await resumeFilesOf(db, donor.id)).toHaveLength(0);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the application form works as a plain form", async ({ page, db, login }) => {
      const donor = await login({ role: "donor" });
      const owner = await ngo(db, `NoJS ${unique()} Trust`);
      const position = await makePosition(db, owner.id, { title: `Teacher ${unique()}` });
      await page.goto(`/vfg2?position=${position.id}`);
      await page.getByRole("link", { name: "Apply" }).click();
      await expect(page).toHaveURL(`/vfg3?position=${position.id}`);

      await page.getByLabel("Prior experience").fill("Taught grade 5.");
      await page.getByRole("button", { name: "Submit" }).click();
      expect(await fieldMessage(page, "Why do you want to volunteer?")).toContain(MOTIVATION_REQUIRED);
      await expect(page.getByLabel("Prior experience")).toHaveValue("Taught grade 5.");
      expect(await applicationsOf(db, donor.id)).toHaveLength(0);

      await page.getByLabel("Why do you want to volunteer?").fill("Every child should read.");
      await page.getByLabel("Resume (PDF)").setInputFiles(pdfUpload());
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page).toHaveURL(new RegExp(`/vfg1\\?notice=applied&position=${position.id}$`));
      await expect(page.getByRole("status")).toContainText(`Your application for “${position.title}” was sent to ${owner.name}.`);
      const rows = await applicationsOf(db, donor.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ motivation: "Every child should read.", experience: "Taught grade 5." });
      expect(await resumeFilesOf(db, donor.id)).toHaveLength(1);
    });
  });
});

test.describe("volunteer history", () => {
  test("/dvh2 lists each application with its state and the NGO's message, with tabs to /dvh", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const owner = await ngo(db, `History ${unique()} Trust`);
    const start = Date.now() - 3_600_000;
    const at = (n: number) => new Date(start + n * 60_000);
    const approvedPos = await makePosition(db, owner.id, { title: `Approved role ${unique()}` });
    const declinedPos = await makePosition(db, owner.id, { title: `Declined role ${unique()}` });
    const closedPos = await makePosition(db, owner.id, { title: `Closed role ${unique()}`, status: "closed", closedAt: new Date() });
    const livePos = await makePosition(db, owner.id, { title: `Live role ${unique()}` });
    await makeApplication(db, approvedPos.id, donor.id, { status: "approved", decidedAt: at(10), decidedBy: owner.id, createdAt: at(1) });
    await makeApplication(db, declinedPos.id, donor.id, {
      status: "declined",
      decidedAt: at(11),
      decidedBy: owner.id,
      decisionMessage: "We have filled this role, thank you.",
      createdAt: at(2),
    });
    await makeApplication(db, closedPos.id, donor.id, { createdAt: at(3) });
    await makeApplication(db, livePos.id, donor.id, { createdAt: at(4) });

    await page.goto("/dvh2");
    const tabs = page.getByRole("navigation", { name: "Your history" });
    await expect(tabs.getByRole("link", { name: "Volunteering" })).toHaveAttribute("aria-current", "page");
    await expect(tabs.getByRole("link", { name: "Donations" })).not.toHaveAttribute("aria-current", "page");
    const items = page.getByRole("list", { name: "Your applications" }).getByRole("listitem");
    await expect(items).toHaveCount(4);
    // Newest first.
    await expect(items.nth(0).getByRole("heading")).toHaveText(livePos.title);
    await expect(items.nth(0)).toContainText("Waiting for a decision");
    await expect(items.nth(0)).toContainText(owner.name);
    await expect(items.nth(0)).toContainText("Applied on");
    await expect(items.nth(1).getByRole("heading")).toHaveText(closedPos.title);
    await expect(items.nth(1)).toContainText("Position closed");
    await expect(items.nth(2).getByRole("heading")).toHaveText(declinedPos.title);
    await expect(items.nth(2)).toContainText("Declined");
    await expect(items.nth(2)).toContainText("Decided on");
    await expect(items.nth(2)).toContainText("Message from the NGOWe have filled this role, thank you.");
    await expect(items.nth(3).getByRole("heading")).toHaveText(approvedPos.title);
    await expect(items.nth(3)).toContainText("Approved");
    await expect(items.nth(3)).not.toContainText("Message from the NGO");
    await expectAccessible(page);

    await items.nth(3).getByRole("link", { name: approvedPos.title }).click();
    await expect(page).toHaveURL(`/vfg2?position=${approvedPos.id}`);
    await expect(page.getByRole("status")).toContainText("State of your application: Approved");

    await page.goto("/dvh2");
    await tabs.getByRole("link", { name: "Donations" }).click();
    await expect(page).toHaveURL(/\/dvh$/);
    await expect(tabs.getByRole("link", { name: "Donations" })).toHaveAttribute("aria-current", "page");
    await tabs.getByRole("link", { name: "Volunteering" }).click();
    await expect(page).toHaveURL(/\/dvh2$/);
    await expect(items).toHaveCount(4);
  });

  test("with no applications, /dvh2 points to the open positions", async ({ page, login }) => {
    await login({ role: "donor" });
    await page.goto("/dvh2");
    await expect(page.getByText("You have not applied to volunteer yet.")).toBeVisible();
    await page.getByRole("link", { name: "Find a position" }).click();
    await expect(page).toHaveURL(/\/vfg1$/);
  });

  test("the donor's volunteering pages read right to left in Urdu and fit a 360 px phone", async ({ page, db, login, context }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await context.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    const donor = await login({ role: "donor" });
    const owner = await ngo(db, `Urdu ${unique()} Trust`);
    const position = await makePosition(db, owner.id, { title: `اساتذہ ${unique()}` });
    const open = await makePosition(db, owner.id, { title: `A rather long position title for small phones ${unique()}` });
    await makeApplication(db, position.id, donor.id, { status: "declined", decidedAt: new Date(), decisionMessage: "شکریہ" });
    for (const path of [
      `/vfg1?q=${encodeURIComponent(owner.name)}`,
      `/vfg2?position=${position.id}`,
      `/vfg3?position=${open.id}`,
      "/dvh2",
    ]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
      await expectAccessible(page);
    }
    await expect(page.getByRole("navigation", { name: "آپ کا ریکارڈ" }).getByRole("link", { name: "رضاکاری" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByText("نامنظور")).toBeVisible();
  });
});
