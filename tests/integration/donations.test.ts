import fs from "node:fs";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cashProofSchema, type CashProofValues } from "#shared/forms/donations.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { DONATION_AMOUNT_MAX, IMAGE_MAX_BYTES, PAGE_SIZE, TRANSACTION_ID_MAX_LENGTH } from "#shared/constants.ts";
import { formatRupees } from "#shared/money.ts";
import type { Db } from "#server/db/client.ts";
import {
  auditLog,
  campaignPartners,
  campaigns,
  donations,
  files,
  mailOutbox,
  ngoProfiles,
  notifications,
  users,
} from "#server/db/schema.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import {
  cashDonationOfDonor,
  decideCashDonation,
  reviewCampaigns,
  reviewDetail,
  reviewQueue,
  submitCashDonation,
} from "#server/domain/donations/cash.ts";
import { imageFingerprint } from "#server/domain/donations/fingerprint.ts";
import type { DonationActor } from "#server/domain/donations/policy.ts";
import { findFileForUser, saveImage } from "#server/domain/files/files.ts";
import type { Storage } from "#server/storage/storage.ts";
import { makeCampaign, makeCashDonation, makeDonation, makeProofPng, makeUser, asSessionUser } from "#tests/helpers/factories.ts";
import { walletScreenshot } from "#server/demo/seed.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { NOT_FOUND, failure } from "#tests/helpers/failure.ts";
import { asDonor, asNgo } from "#tests/helpers/actors.ts";

/** The domain error a call fails with (kind, message key, field), or "no error". */

const pngFile = (bytes: Buffer, name = "proof.png", type = "image/png") => new File([new Uint8Array(bytes)], name, { type });
/** A transaction ID as a donor might type it (lower case, spaces, dashes), unique per call. */
const typedTid = () => `tx ${randomUUID().slice(0, 8)}-${randomUUID().slice(0, 4)}`;
const normalisedTid = (typed: string) => typed.replace(/[\s-]/g, "").toUpperCase();

type Fields = Record<string, string | File | undefined>;

/** The proof form as the browser posts it (a FormData), parsed the way the server action parses it. */
function parseProof(fields: Fields) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  return parseWithZod(form, { schema: cashProofSchema });
}

function proofValues(fields: Fields): CashProofValues {
  const submission = parseProof(fields);
  if (submission.status !== "success") throw new Error(`the proof form was refused: ${JSON.stringify(submission.error)}`);
  return submission.value;
}

/** Every message the form gives, by field; fails the test when the form is accepted. */
function proofErrors(fields: Fields): Record<string, string[] | null> {
  const submission = parseProof(fields);
  if (submission.status === "success") throw new Error("the proof form was accepted");
  return (submission.error ?? {}) as Record<string, string[] | null>;
}

/** The first message the form gives for one field when only that field takes `value`, or undefined when it is accepted. */
function fieldError(base: Fields, name: string, value: string | File | undefined): string | undefined {
  const submission = parseProof({ ...base, [name]: value });
  if (submission.status === "success") return undefined;
  return (submission.error as Record<string, string[] | null> | undefined)?.[name]?.[0];
}

/** The value the form keeps for one field when only that field takes `value`. */
function fieldValue(base: Fields, name: keyof CashProofValues, value: string): unknown {
  return proofValues({ ...base, [name]: value })[name];
}

/** Fails every insert into donations, as a database that went away at that moment would. */
function failingDonationInserts(db: Db): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "insert") {
        return (table: Parameters<Db["insert"]>[0]) => {
          if (table === donations) throw new Error("connection lost while writing the donation");
          return target.insert(table);
        };
      }
      // The gift is written in a transaction (with the NGO's notice): its handle fails the same way.
      if (prop === "transaction") {
        return (run: (tx: Db) => Promise<unknown>) => target.transaction((tx) => run(failingDonationInserts(tx as unknown as Db)));
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe("cash donations", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  const proofDir = () => path.join(s.config.dataDir, "files", "proof");
  function storedProofs(): string[] {
    if (!fs.existsSync(proofDir())) return [];
    return fs
      .readdirSync(proofDir())
      .map((f) => `proof/${f}`)
      .sort();
  }

  /**
   * Runs after every scenario: every campaign's collected amount is the sum of its approved cash donations,
   * every approved cash donation has a receipt number, unique per NGO (and nothing else has one), and every
   * stored payment screenshot belongs to exactly one donation: nothing half-written, no orphans.
   */
  afterEach(async () => {
    const approvedSum = sql`coalesce(sum(${donations.amount}) filter (where ${donations.status} = 'approved' and ${donations.kind} = 'cash'), 0)`;
    const unbalanced = await s.db
      .select({ title: campaigns.title, collected: campaigns.collectedAmount, approved: sql<number>`${approvedSum}`.mapWith(Number) })
      .from(campaigns)
      .leftJoin(donations, eq(donations.campaignId, campaigns.id))
      .groupBy(campaigns.id)
      .having(sql`${campaigns.collectedAmount} <> ${approvedSum}`);
    expect(unbalanced, "campaigns whose collected amount is not the sum of their approved donations").toEqual([]);

    const badReceipts = await s.db
      .select({ id: donations.id, status: donations.status, receiptNumber: donations.receiptNumber })
      .from(donations)
      .where(sql`${donations.kind} = 'cash' and ((${donations.status} = 'approved') <> (${donations.receiptNumber} is not null))`);
    expect(badReceipts, "approved donations without a receipt number, or others with one").toEqual([]);
    const repeated = await s.db
      .select({ ngo: donations.recipientNgoId, n: donations.receiptNumber, count: sql<number>`count(*)`.mapWith(Number) })
      .from(donations)
      .where(isNotNull(donations.receiptNumber))
      .groupBy(donations.recipientNgoId, donations.receiptNumber)
      .having(sql`count(*) > 1`);
    expect(repeated, "receipt numbers given twice by one NGO").toEqual([]);

    const proofRows = (await s.db.select({ key: files.key }).from(files).where(eq(files.kind, "proof"))).map((r) => r.key).sort();
    const referenced = (await s.db.select({ key: donations.proofKey }).from(donations).where(isNotNull(donations.proofKey)))
      .map((r) => r.key!)
      .sort();
    expect(storedProofs(), "screenshots in storage = screenshots in the files table").toEqual(proofRows);
    expect(proofRows, "screenshots in the files table = screenshots of donations").toEqual(referenced);
  });

  /** A verified NGO with an account for every method unless told otherwise. */
  async function ngo(
    opts: { name?: string; verification?: "pending" | "verified"; accounts?: Partial<typeof ngoProfiles.$inferInsert> } = {},
  ) {
    const u = await makeUser(s.db, "ngo", { name: opts.name, verification: opts.verification });
    await s.db
      .update(ngoProfiles)
      .set({
        jazzcashNumber: "03001112222",
        easypaisaNumber: "03451112222",
        bankName: "Meezan Bank",
        bankAccountTitle: "Test Trust",
        bankAccountNumber: "PK36MEZN0001230101234567",
        ...opts.accounts,
      })
      .where(eq(ngoProfiles.userId, u.id));
    return u;
  }

  /** An NGO, a donor and an active campaign of that NGO. */
  async function scene(campaign: Partial<typeof campaigns.$inferInsert> & { partners?: string[] } = {}) {
    const owner = await ngo({ name: `Owner Trust ${randomUUID().slice(0, 6)}` });
    const donor = await makeUser(s.db, "donor");
    const c = await makeCampaign(s.db, owner.id, campaign);
    return { owner, donor, campaign: c };
  }

  async function proofFields(campaign: { slug: string }, ngoId: string, overrides: Fields = {}): Promise<Fields> {
    return {
      campaign: campaign.slug,
      ngo: ngoId,
      method: "jazzcash",
      idempotencyKey: randomUUID(),
      phone: "0300 123-4567",
      amount: "5,000",
      transactionId: typedTid(),
      screenshot: pngFile(await makeProofPng()),
      ...overrides,
    };
  }

  const donationsOf = (donorId: string) => s.db.select().from(donations).where(eq(donations.donorId, donorId));
  const proofFilesOf = (ownerId: string) =>
    s.db
      .select()
      .from(files)
      .where(and(eq(files.ownerId, ownerId), eq(files.kind, "proof")));
  const notificationsOf = (userId: string, type: string) =>
    s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
  const auditOf = (donationId: string) =>
    s.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.details}->>'donationId' = ${donationId}`);
  const mailTo = (email: string) => s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  const campaignRow = async (id: string) => (await s.db.select().from(campaigns).where(eq(campaigns.id, id)))[0]!;
  const donationRow = async (id: string) => (await s.db.select().from(donations).where(eq(donations.id, id)))[0]!;

  describe("submitting a proof", () => {
    it("records one pending donation with the normalised phone and transaction ID, the stored proof and its fingerprint, and tells the NGO", async () => {
      const { owner, donor, campaign } = await scene({ title: `Clean water Thar ${randomUUID().slice(0, 6)}` });
      const png = await makeProofPng();
      const tid = typedTid();
      const fields = await proofFields(campaign, owner.id, {
        screenshot: pngFile(png),
        transactionId: tid,
        amount: "5,000",
        method: "easypaisa",
      });

      const result = await submitCashDonation(s, donor, proofValues(fields));

      expect(result.created).toBe(true);
      const rows = await donationsOf(donor.id);
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row).toMatchObject({
        id: result.id,
        campaignId: campaign.id,
        recipientNgoId: owner.id,
        kind: "cash",
        status: "pending",
        amount: 5000,
        method: "easypaisa",
        phone: "03001234567",
        transactionId: normalisedTid(tid),
        idempotencyKey: fields.idempotencyKey,
        receiptNumber: null,
        decidedAt: null,
        decidedBy: null,
        rejectionReason: null,
      });
      expect(row.proofKey).toMatch(/^proof\/[0-9a-f-]{36}\.webp$/);
      expect(row.proofFingerprint).toMatch(/^[0-9a-f]{16,64}$/);
      expect(row.proofFingerprint).toBe(await imageFingerprint(png));

      const stored = await s.storage.get(row.proofKey!);
      expect(stored).not.toBeNull();
      expect((await sharp(stored!).metadata()).format).toBe("webp");
      expect(await proofFilesOf(donor.id)).toMatchObject([
        { key: row.proofKey, kind: "proof", ownerId: donor.id, contentType: "image/webp" },
      ]);

      expect(await notificationsOf(owner.id, "donationReceived")).toMatchObject([
        { params: { amount: formatRupees(5000), campaign: campaign.title }, link: `/apps?view=${result.id}`, readAt: null },
      ]);
      // Nothing counts until the NGO approves.
      expect((await campaignRow(campaign.id)).collectedAmount).toBe(0);
    });

    it("a retried submission with the same key returns the first donation: one row, one stored file, one notice", async () => {
      const { owner, donor, campaign } = await scene();
      const png = await makeProofPng();
      const fields = await proofFields(campaign, owner.id, { screenshot: pngFile(png) });

      const first = await submitCashDonation(s, donor, proofValues(fields));
      // The browser resends the same form (same key, same file) after a dropped connection.
      const again = await submitCashDonation(s, donor, proofValues({ ...fields, screenshot: pngFile(png) }));

      expect(first.created).toBe(true);
      expect(again).toEqual({ id: first.id, created: false });
      expect(await donationsOf(donor.id)).toHaveLength(1);
      expect(await proofFilesOf(donor.id)).toHaveLength(1);
      expect(await notificationsOf(owner.id, "donationReceived")).toHaveLength(1);

      // Even when the campaign ended in between, the retry finds the donation the first request made.
      await s.db.update(campaigns).set({ status: "completed", completedAt: new Date() }).where(eq(campaigns.id, campaign.id));
      expect(await submitCashDonation(s, donor, proofValues({ ...fields, screenshot: pngFile(png) }))).toEqual({
        id: first.id,
        created: false,
      });
      expect(await proofFilesOf(donor.id)).toHaveLength(1);
      await s.db.update(campaigns).set({ status: "active", completedAt: null }).where(eq(campaigns.id, campaign.id));

      // The key belongs to one donor's form: another donor's form with the same key is its own donation.
      const other = await makeUser(s.db, "donor");
      const theirs = await submitCashDonation(s, other, proofValues({ ...fields, screenshot: pngFile(await makeProofPng()) }));
      expect(theirs.created).toBe(true);
      expect(theirs.id).not.toBe(first.id);
    });

    it("10 concurrent submissions with the same key create one donation and keep exactly one proof file", async () => {
      const { owner, donor, campaign } = await scene();
      const png = await makeProofPng();
      const fields = await proofFields(campaign, owner.id);
      const before = storedProofs().length;

      const results = await Promise.all(
        Array.from({ length: 10 }, () => submitCashDonation(s, donor, proofValues({ ...fields, screenshot: pngFile(png) }))),
      );

      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const rows = await donationsOf(donor.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id).toBe(results[0]!.id);
      const proofFiles = await proofFilesOf(donor.id);
      expect(proofFiles.map((f) => f.key)).toEqual([rows[0]!.proofKey]);
      expect(await s.storage.get(rows[0]!.proofKey!)).not.toBeNull();
      expect(storedProofs().length).toBe(before + 1);
      expect(await notificationsOf(owner.id, "donationReceived")).toHaveLength(1);
    });

    it("refuses a campaign that has ended, was archived or does not exist, storing nothing", async () => {
      const { owner, donor } = await scene();
      const completed = await makeCampaign(s.db, owner.id, { status: "completed", completedAt: new Date() });
      const archived = await makeCampaign(s.db, owner.id, { status: "archived", archivedAt: new Date() });

      expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields(completed, owner.id))))).toEqual({
        kind: "invalid",
        message: "donations:errors.campaignNotActive",
      });
      expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields(archived, owner.id))))).toEqual(NOT_FOUND);
      expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields({ slug: "no-such-campaign" }, owner.id))))).toEqual(
        NOT_FOUND,
      );
      expect(await donationsOf(donor.id)).toHaveLength(0);
      expect(await proofFilesOf(donor.id)).toHaveLength(0);
    });

    it("refuses a method the NGO has no account for, on the method field", async () => {
      // A bank account needs its bank, title and number: a half-filled one is no account.
      const owner = await ngo({ accounts: { easypaisaNumber: null, bankAccountNumber: null } });
      const donor = await makeUser(s.db, "donor");
      const campaign = await makeCampaign(s.db, owner.id);

      for (const method of ["easypaisa", "bank"]) {
        expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields(campaign, owner.id, { method }))))).toEqual({
          kind: "invalid",
          message: "donations:errors.methodUnavailable",
          field: "method",
        });
      }
      expect(await donationsOf(donor.id)).toHaveLength(0);
      const ok = await submitCashDonation(s, donor, proofValues(await proofFields(campaign, owner.id, { method: "jazzcash" })));
      expect((await donationRow(ok.id)).method).toBe("jazzcash");
    });

    it("pays only an NGO that runs the campaign: the owner or an accepted partner", async () => {
      const owner = await ngo();
      const partner = await ngo();
      const invited = await ngo();
      const stranger = await ngo();
      const donor = await makeUser(s.db, "donor");
      const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
      await makeCampaign(s.db, stranger.id);
      await s.db.insert(campaignPartners).values({ campaignId: campaign.id, ngoId: invited.id, direction: "invited", status: "pending" });

      for (const id of [stranger.id, invited.id, donor.id, randomUUID()]) {
        expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields(campaign, id))))).toEqual(NOT_FOUND);
      }
      expect(await donationsOf(donor.id)).toHaveLength(0);

      const toPartner = await submitCashDonation(s, donor, proofValues(await proofFields(campaign, partner.id)));
      expect(await donationRow(toPartner.id)).toMatchObject({ campaignId: campaign.id, recipientNgoId: partner.id });
      expect(await notificationsOf(partner.id, "donationReceived")).toHaveLength(1);
      expect(await notificationsOf(owner.id, "donationReceived")).toHaveLength(0);
    });

    it("cannot pay a suspended or unverified NGO", async () => {
      const suspended = await ngo();
      const unverified = await ngo({ verification: "pending" });
      const partner = await ngo();
      const donor = await makeUser(s.db, "donor");
      await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
      const ofSuspended = await makeCampaign(s.db, suspended.id, { partners: [partner.id] });
      const ofUnverified = await makeCampaign(s.db, unverified.id);

      // A suspended (or unverified) owner's campaign is paused as a whole: its partner is not paid for it either.
      const PAUSED = { kind: "invalid", message: "campaigns:errors.paused" };
      expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields(ofSuspended, suspended.id))))).toEqual(PAUSED);
      expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields(ofSuspended, partner.id))))).toEqual(PAUSED);
      expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields(ofUnverified, unverified.id))))).toEqual(PAUSED);
      expect(await donationsOf(donor.id)).toHaveLength(0);
      // A suspended partner of a campaign in good standing is not paid; its owner still is.
      const ofPartner = await makeCampaign(s.db, partner.id, { partners: [suspended.id] });
      expect(await failure(submitCashDonation(s, donor, proofValues(await proofFields(ofPartner, suspended.id))))).toEqual(NOT_FOUND);
      const ok = await submitCashDonation(s, donor, proofValues(await proofFields(ofPartner, partner.id)));
      expect(ok.created).toBe(true);
    });
  });

  describe("bad input on the proof form", () => {
    let base: Fields;
    beforeAll(async () => {
      base = {
        campaign: "some-campaign",
        ngo: randomUUID(),
        method: "bank",
        idempotencyKey: randomUUID(),
        phone: "03001234567",
        amount: "2500",
        transactionId: "AB1234CD",
        screenshot: pngFile(await makeProofPng()),
      };
    });
    const SCRIPT = "<script>alert(1)</script>";
    const asFile = (text: string) => new File([text], "value.txt", { type: "text/plain" });

    it("accepts a complete form", () => {
      expect(parseProof(base).status).toBe("success");
    });

    it("an empty form gets a message on every field", () => {
      const errors = proofErrors({
        campaign: "",
        ngo: "",
        method: "",
        idempotencyKey: "",
        phone: "",
        amount: "",
        transactionId: "",
        screenshot: new File([], ""),
      });
      expect(errors).toEqual({
        campaign: ["errors:notFound"],
        ngo: ["errors:notFound"],
        method: ["donations:errors.methodUnknown"],
        idempotencyKey: ["donations:errors.formExpired"],
        phone: ["donations:errors.fillAll"],
        amount: ["donations:errors.fillAll"],
        transactionId: ["donations:errors.fillAll"],
        screenshot: ["donations:errors.screenshotMissing"],
      });
      // Blanks are empty too.
      expect(fieldError(base, "phone", "   ")).toBe("donations:errors.fillAll");
      expect(fieldError(base, "amount", " , ")).toBe("donations:errors.fillAll");
      expect(fieldError(base, "transactionId", " - ")).toBe("donations:errors.fillAll");
    });

    it("phone: a mobile number as people type it, kept in national form", () => {
      expect(fieldValue(base, "phone", "0300 123-4567")).toBe("03001234567");
      // Issue 14, item 5: the country code, Urdu and Arabic-Indic digits.
      expect(fieldValue(base, "phone", "+92 321 1234567")).toBe("03211234567");
      expect(fieldValue(base, "phone", "0092-321-1234567")).toBe("03211234567");
      expect(fieldValue(base, "phone", "۰۳۲۱۱۲۳۴۵۶۷")).toBe("03211234567");
      expect(fieldValue(base, "phone", "٠٣٢١١٢٣٤٥٦٧")).toBe("03211234567");
      // A landline or an 11-digit number that is not a mobile is not a phone a donor is reached on.
      expect(fieldError(base, "phone", "0515551234")).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", "12345678901")).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", "0300123456")).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", "030012345678")).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", "0".repeat(5000))).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", "+9230012345678")).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", "0300l234567")).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", SCRIPT)).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", "０３００１２３４５６７")).toBe("donations:errors.phoneDigits");
      expect(fieldError(base, "phone", asFile("03001234567"))).toBe("donations:errors.fillAll");
    });

    it("amount: whole rupees from 1 to the maximum, as people type them", () => {
      expect(fieldValue(base, "amount", "5,000")).toBe(5000);
      // Issue 14, item 5: the currency, a trailing "/-", whole paisas, Urdu digits.
      expect(fieldValue(base, "amount", "Rs. 1,000")).toBe(1000);
      expect(fieldValue(base, "amount", "PKR 2500")).toBe(2500);
      expect(fieldValue(base, "amount", "1,000/-")).toBe(1000);
      expect(fieldValue(base, "amount", "1,000.00")).toBe(1000);
      expect(fieldValue(base, "amount", "۵۰۰۰")).toBe(5000);
      expect(fieldValue(base, "amount", "١٠٠")).toBe(100);
      expect(fieldValue(base, "amount", "1 250 000")).toBe(1_250_000);
      expect(fieldValue(base, "amount", String(DONATION_AMOUNT_MAX))).toBe(DONATION_AMOUNT_MAX);
      expect(fieldValue(base, "amount", "1")).toBe(1);
      expect(fieldError(base, "amount", "0")).toBe("donations:errors.amountPositive");
      expect(fieldError(base, "amount", "000")).toBe("donations:errors.amountPositive");
      expect(fieldError(base, "amount", String(DONATION_AMOUNT_MAX + 1))).toBe("donations:errors.amountTooLarge");
      for (const bad of ["1e5", "-5", "12.5", "0x10", "Infinity", "NaN", "abc", SCRIPT, "9".repeat(13), "9".repeat(5000)]) {
        expect(fieldError(base, "amount", bad), bad.slice(0, 20)).toBe("donations:errors.amountDigits");
      }
      expect(fieldError(base, "amount", asFile("5000"))).toBe("donations:errors.fillAll");
    });

    it("transaction ID: letters and digits, normalised; symbols, scripts and overlong values refused", () => {
      expect(fieldValue(base, "transactionId", "ab 12-34cd")).toBe("AB1234CD");
      expect(fieldValue(base, "transactionId", " 0123 4567 8901 ")).toBe("012345678901");
      expect(fieldValue(base, "transactionId", "A".repeat(TRANSACTION_ID_MAX_LENGTH))).toBe("A".repeat(TRANSACTION_ID_MAX_LENGTH));
      expect(fieldError(base, "transactionId", "A".repeat(TRANSACTION_ID_MAX_LENGTH + 1))).toBe("validation:tooLong");
      expect(fieldError(base, "transactionId", "A".repeat(100_000))).toBe("validation:tooLong");
      for (const bad of ["ABC$123", "AB_1234", "AB.1234", "AB/1234", "ab1", "TID١٢٣٤", "AB'; DROP TABLE donations;--", SCRIPT]) {
        expect(fieldError(base, "transactionId", bad), bad).toBe("donations:errors.transactionInvalid");
      }
      expect(fieldError(base, "transactionId", asFile("AB1234CD"))).toBe("donations:errors.fillAll");
    });

    it("campaign, NGO, method and form key: anything odd is not found or expired", () => {
      expect(fieldError(base, "campaign", "x".repeat(201))).toBe("errors:notFound");
      expect(fieldError(base, "campaign", asFile("flood-relief"))).toBe("errors:notFound");
      // A hostile slug passes the form and is simply not found by the server (checked below).
      expect(fieldValue(base, "campaign", SCRIPT)).toBe(SCRIPT);
      for (const bad of ["not-a-uuid", SCRIPT, `${randomUUID()}x`]) {
        expect(fieldError(base, "ngo", bad)).toBe("errors:notFound");
      }
      expect(fieldError(base, "ngo", asFile(randomUUID()))).toBe("errors:notFound");
      for (const bad of ["paypal", "JAZZCASH", SCRIPT]) {
        expect(fieldError(base, "method", bad)).toBe("donations:errors.methodUnknown");
      }
      expect(fieldError(base, "method", asFile("bank"))).toBe("donations:errors.methodUnknown");
      for (const bad of ["abc", SCRIPT, "x".repeat(5000)]) {
        expect(fieldError(base, "idempotencyKey", bad)).toBe("donations:errors.formExpired");
      }
    });

    it("a hostile campaign slug is not found, and nothing is stored", async () => {
      const { owner, donor } = await scene();
      const values = proofValues(await proofFields({ slug: SCRIPT }, owner.id));
      expect(await failure(submitCashDonation(s, donor, values))).toEqual(NOT_FOUND);
      expect(await failure(submitCashDonation(s, donor, { ...values, campaign: "' or 1=1 --" }))).toEqual(NOT_FOUND);
      expect(await donationsOf(donor.id)).toHaveLength(0);
      expect(await proofFilesOf(donor.id)).toHaveLength(0);
    });

    it("screenshot: text instead of a file is missing; a file that is not an image is refused by content, storing nothing", async () => {
      expect(fieldError(base, "screenshot", "proof.png")).toBe("donations:errors.screenshotMissing");
      const { owner, donor, campaign } = await scene();
      const before = storedProofs();
      const png = await makeProofPng();
      const fakes = [
        new File(["<!doctype html><html><body><script>alert(1)</script></body></html>"], "proof.png", { type: "image/png" }),
        new File([`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="9" height="9"/></svg>`], "proof.png", {
          type: "image/png",
        }),
        new File(["%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj"], "proof.png", { type: "image/png" }),
        // Starts like a PNG, but is cut short.
        pngFile(png.subarray(0, 200)),
      ];
      for (const screenshot of fakes) {
        const values = proofValues(await proofFields(campaign, owner.id, { screenshot }));
        expect(await failure(submitCashDonation(s, donor, values))).toEqual({
          kind: "invalid",
          message: "validation:imageInvalid",
          field: "screenshot",
        });
      }
      expect(await donationsOf(donor.id)).toHaveLength(0);
      expect(await proofFilesOf(donor.id)).toHaveLength(0);
      expect(storedProofs()).toEqual(before);
      expect(await notificationsOf(owner.id, "donationReceived")).toHaveLength(0);
    });

    it("a 30 MB image is too large for the form and for the server, storing nothing", async () => {
      // A real PNG of 30 MB: uncompressed noise.
      const width = 3300;
      const height = 3200;
      const big = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(big.length).toBeGreaterThan(30 * 1024 * 1024);
      expect(big.length).toBeGreaterThan(IMAGE_MAX_BYTES);
      const file = pngFile(big, "IMG_2041.png");

      expect(fieldError(base, "screenshot", file)).toBe("validation:imageTooLarge");

      const { owner, donor, campaign } = await scene();
      const before = storedProofs();
      expect(await failure(saveImage(s, { file, kind: "proof", ownerId: donor.id, field: "screenshot" }))).toEqual({
        kind: "invalid",
        message: "validation:imageTooLarge",
        field: "screenshot",
      });
      // A direct call that skipped the form is refused the same way.
      const values = { ...proofValues(await proofFields(campaign, owner.id)), screenshot: file };
      expect(await failure(submitCashDonation(s, donor, values))).toEqual({
        kind: "invalid",
        message: "validation:imageTooLarge",
        field: "screenshot",
      });
      expect(await donationsOf(donor.id)).toHaveLength(0);
      expect(await proofFilesOf(donor.id)).toHaveLength(0);
      expect(storedProofs()).toEqual(before);
    });
  });

  describe("nothing half-written", () => {
    it("when the donation cannot be written after the screenshot was stored, the screenshot goes too", async () => {
      const { owner, donor, campaign } = await scene();
      const before = storedProofs();
      const values = proofValues(await proofFields(campaign, owner.id));

      await expect(submitCashDonation({ ...s, db: failingDonationInserts(s.db) }, donor, values)).rejects.toThrow(/connection lost/);

      expect(await donationsOf(donor.id)).toHaveLength(0);
      expect(await proofFilesOf(donor.id)).toHaveLength(0);
      expect(storedProofs()).toEqual(before);
      expect(await notificationsOf(owner.id, "donationReceived")).toHaveLength(0);
      // The donor tries again with the same form, and it works.
      const retry = await submitCashDonation(s, donor, values);
      expect(retry.created).toBe(true);
      expect(await proofFilesOf(donor.id)).toHaveLength(1);
    });

    it("when the campaign is deleted between the check and the insert, the screenshot goes too", async () => {
      const { owner, donor, campaign } = await scene();
      const before = storedProofs();
      let storedKey: string | null = null;
      const storage: Storage = {
        ...s.storage,
        async put(key, body) {
          await s.storage.put(key, body);
          storedKey = key;
          // The NGO deletes its campaign (it has no donations yet) while the screenshot is being stored.
          await s.db.delete(campaigns).where(eq(campaigns.id, campaign.id));
        },
      };

      // The donor is told the campaign is gone (a 404 with that message), not to try again later.
      expect(await failure(submitCashDonation({ ...s, storage }, donor, proofValues(await proofFields(campaign, owner.id))))).toEqual({
        kind: "not_found",
        message: "donate:details.notFound",
      });

      expect(storedKey).not.toBeNull();
      expect(await s.storage.get(storedKey!)).toBeNull();
      expect(await s.db.select().from(files).where(eq(files.key, storedKey!))).toHaveLength(0);
      expect(await donationsOf(donor.id)).toHaveLength(0);
      expect(storedProofs()).toEqual(before);
    });
  });

  describe("deciding", () => {
    it("50 concurrent approvals of one donation: one approval, counted once, one audit entry, one notice, one email", async () => {
      const { owner, donor, campaign } = await scene({ targetAmount: 1_000_000 });
      const d = await makeCashDonation(s, campaign, donor.id, { amount: 7_500 });

      const outcomes = await Promise.all(
        Array.from({ length: 50 }, () => decideCashDonation(s, asNgo(owner.id), { donationId: d.id, approve: true })),
      );

      expect(outcomes.filter((o) => o.changed)).toHaveLength(1);
      expect(outcomes.every((o) => o.status === "approved" && o.receiptNumber === 1)).toBe(true);
      expect((await campaignRow(campaign.id)).collectedAmount).toBe(7_500);
      const row = await donationRow(d.id);
      expect(row).toMatchObject({ status: "approved", receiptNumber: 1, decidedBy: owner.id, rejectionReason: null });
      expect(row.decidedAt).toBeInstanceOf(Date);
      const audit = await auditOf(d.id);
      expect(audit).toMatchObject([
        {
          actorId: owner.id,
          action: "donation.approved",
          targetUserId: donor.id,
          details: { donationId: d.id, campaignId: campaign.id, amount: 7_500, method: "jazzcash", receiptNumber: 1, reason: null },
        },
      ]);
      const told = await notificationsOf(donor.id, "donationApproved");
      expect(told).toHaveLength(1);
      expect(told[0]!.params).toMatchObject({ amount: formatRupees(7_500), campaign: campaign.title });
      const mail = await mailTo(donor.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.subject).toContain(formatRupees(7_500));
      expect(mail[0]!.body).toContain(campaign.title);
      expect((await s.db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, owner.id)))[0]!.receiptCounter).toBe(1);
    });

    it("50 different donations approved concurrently, some paid to a partner: the total is their sum to the rupee, receipts 1..n per NGO", async () => {
      const owner = await ngo();
      const partner = await ngo();
      const donor = await makeUser(s.db, "donor");
      const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id], targetAmount: 10_000_000 });
      const made = [];
      for (let i = 0; i < 50; i += 1) {
        const paidTo = i % 3 === 0 ? partner.id : owner.id;
        const d = await makeCashDonation(s, { id: campaign.id, ownerId: paidTo }, donor.id, { amount: 1_000 + i * 137 + (i % 7) });
        made.push(d);
      }
      const expected = made.reduce((sum, d) => sum + d.amount!, 0);

      const outcomes = await Promise.all(
        made.map((d) => decideCashDonation(s, asNgo(d.recipientNgoId), { donationId: d.id, approve: true })),
      );

      expect(outcomes.every((o) => o.changed && o.status === "approved")).toBe(true);
      expect((await campaignRow(campaign.id)).collectedAmount).toBe(expected);
      for (const id of [owner.id, partner.id]) {
        const numbers = (
          await s.db
            .select({ n: donations.receiptNumber })
            .from(donations)
            .where(and(eq(donations.recipientNgoId, id), eq(donations.status, "approved")))
            .orderBy(asc(donations.receiptNumber))
        ).map((r) => r.n);
        const count = made.filter((d) => d.recipientNgoId === id).length;
        expect(numbers).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      }
      expect(await notificationsOf(donor.id, "donationApproved")).toHaveLength(50);
    });

    it("approvals and disapprovals of one donation racing each other: one decision wins, the other is refused", async () => {
      const { owner, donor, campaign } = await scene();
      const d = await makeCashDonation(s, campaign, donor.id, { amount: 4_321 });

      const settled = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) =>
          decideCashDonation(
            s,
            asNgo(owner.id),
            i % 2 ? { donationId: d.id, approve: true } : { donationId: d.id, approve: false, reason: "Not received" },
          ),
        ),
      );

      const won = settled.flatMap((r) => (r.status === "fulfilled" && r.value.changed ? [r.value] : []));
      expect(won).toHaveLength(1);
      const final = won[0]!.status;
      expect((await donationRow(d.id)).status).toBe(final);
      for (const r of settled) {
        if (r.status === "fulfilled") expect(r.value).toMatchObject({ status: final });
        else expect(r.reason).toMatchObject({ kind: "conflict", message: "donations:errors.alreadyDecided" });
      }
      expect(settled.filter((r) => r.status === "rejected")).toHaveLength(20);
      expect((await campaignRow(campaign.id)).collectedAmount).toBe(final === "approved" ? 4_321 : 0);
      expect(await auditOf(d.id)).toHaveLength(1);
      expect(await mailTo(donor.email)).toHaveLength(1);
    });

    it("approve then disapprove (and the other way round): already decided, nothing changes", async () => {
      const { owner, donor, campaign } = await scene();
      const a = await makeCashDonation(s, campaign, donor.id, { amount: 3_000 });
      const b = await makeCashDonation(s, campaign, donor.id, { amount: 4_000 });

      expect(await decideCashDonation(s, asNgo(owner.id), { donationId: a.id, approve: true })).toEqual({
        status: "approved",
        changed: true,
        receiptNumber: 1,
        campaignCompleted: false,
      });
      expect(await failure(decideCashDonation(s, asNgo(owner.id), { donationId: a.id, approve: false, reason: "Not received" }))).toEqual({
        kind: "conflict",
        message: "donations:errors.alreadyDecided",
      });
      expect(await donationRow(a.id)).toMatchObject({ status: "approved", receiptNumber: 1, rejectionReason: null });

      expect((await decideCashDonation(s, asNgo(owner.id), { donationId: b.id, approve: false, reason: "No such transfer" })).changed).toBe(
        true,
      );
      expect(await failure(decideCashDonation(s, asNgo(owner.id), { donationId: b.id, approve: true }))).toEqual({
        kind: "conflict",
        message: "donations:errors.alreadyDecided",
      });
      // Disapproving twice keeps the first reason and tells the donor once.
      expect(await decideCashDonation(s, asNgo(owner.id), { donationId: b.id, approve: false, reason: "Another reason" })).toMatchObject({
        status: "rejected",
        changed: false,
        receiptNumber: null,
      });
      expect(await donationRow(b.id)).toMatchObject({ status: "rejected", receiptNumber: null, rejectionReason: "No such transfer" });

      expect((await campaignRow(campaign.id)).collectedAmount).toBe(3_000);
      expect(await auditOf(a.id)).toHaveLength(1);
      expect(await auditOf(b.id)).toHaveLength(1);
      expect(await notificationsOf(donor.id, "donationApproved")).toHaveLength(1);
      expect(await notificationsOf(donor.id, "donationRejected")).toHaveLength(1);
      expect(await mailTo(donor.email)).toHaveLength(2);
    });

    it("only the NGO that was paid decides: not another NGO, not the owner of a joint campaign for its partner's donation", async () => {
      const owner = await ngo();
      const partner = await ngo();
      const stranger = await ngo();
      const donor = await makeUser(s.db, "donor");
      const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
      const toOwner = await makeCashDonation(s, campaign, donor.id, { amount: 2_000 });
      const toPartner = await makeCashDonation(s, { id: campaign.id, ownerId: partner.id }, donor.id, { amount: 3_000 });

      const attempts: [DonationActor, string][] = [
        [asNgo(stranger.id), toOwner.id],
        [asNgo(partner.id), toOwner.id],
        [{ id: donor.id, role: "donor" }, toOwner.id],
        [asNgo(owner.id), toPartner.id],
        [asNgo(stranger.id), toPartner.id],
      ];
      for (const [actor, donationId] of attempts) {
        expect(await failure(decideCashDonation(s, actor, { donationId, approve: true }))).toEqual(NOT_FOUND);
        expect(await failure(decideCashDonation(s, actor, { donationId, approve: false, reason: "Fake" }))).toEqual(NOT_FOUND);
      }
      expect(await donationRow(toOwner.id)).toMatchObject({ status: "pending", decidedBy: null, receiptNumber: null });
      expect(await donationRow(toPartner.id)).toMatchObject({ status: "pending", decidedBy: null, receiptNumber: null });
      expect((await campaignRow(campaign.id)).collectedAmount).toBe(0);
      expect(await auditOf(toOwner.id)).toHaveLength(0);
      expect(await auditOf(toPartner.id)).toHaveLength(0);

      // Each decides its own; both count towards the one campaign.
      expect((await decideCashDonation(s, asNgo(partner.id), { donationId: toPartner.id, approve: true })).receiptNumber).toBe(1);
      expect((await decideCashDonation(s, asNgo(owner.id), { donationId: toOwner.id, approve: true })).receiptNumber).toBe(1);
      expect((await campaignRow(campaign.id)).collectedAmount).toBe(5_000);
    });

    it("an in-kind donation is not decided here", async () => {
      const { owner, donor, campaign } = await scene();
      const inKind = await makeDonation(s.db, campaign, donor.id, { kind: "in_kind" });
      expect(await failure(decideCashDonation(s, asNgo(owner.id), { donationId: inKind.id, approve: true }))).toEqual(NOT_FOUND);
      expect((await donationRow(inKind.id)).status).toBe("pending");
    });

    it("disapproving stores the reason, tells the donor why, and leaves the total alone", async () => {
      const { owner, donor, campaign } = await scene();
      const d = await makeCashDonation(s, campaign, donor.id, { amount: 9_000 });
      const reason = "The transaction ID does not match any transfer we received. <b>Please</b> check it.";

      expect(await decideCashDonation(s, asNgo(owner.id), { donationId: d.id, approve: false, reason })).toEqual({
        status: "rejected",
        changed: true,
        receiptNumber: null,
        campaignCompleted: false,
      });

      const row = await donationRow(d.id);
      expect(row).toMatchObject({ status: "rejected", rejectionReason: reason, decidedBy: owner.id, receiptNumber: null });
      expect(row.decidedAt).toBeInstanceOf(Date);
      expect((await campaignRow(campaign.id)).collectedAmount).toBe(0);
      expect(await notificationsOf(donor.id, "donationRejected")).toMatchObject([
        { params: { reason, amount: formatRupees(9_000), campaign: campaign.title }, link: "/dvh" },
      ]);
      const mail = await mailTo(donor.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.body).toContain(reason);
      expect(await auditOf(d.id)).toMatchObject([
        { action: "donation.rejected", actorId: owner.id, details: { reason, receiptNumber: null } },
      ]);
      expect((await s.db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, owner.id)))[0]!.receiptCounter).toBe(0);
    });

    it("the approval that reaches the target completes the campaign; a later approval still counts", async () => {
      const { owner, donor, campaign } = await scene({ targetAmount: 10_000 });
      const first = await makeCashDonation(s, campaign, donor.id, { amount: 4_000 });
      const reaching = await makeCashDonation(s, campaign, donor.id, { amount: 6_000 });
      const late = await makeCashDonation(s, campaign, donor.id, { amount: 2_000 });

      expect((await decideCashDonation(s, asNgo(owner.id), { donationId: first.id, approve: true })).campaignCompleted).toBe(false);
      expect(await campaignRow(campaign.id)).toMatchObject({ status: "active", completedAt: null, collectedAmount: 4_000 });

      expect((await decideCashDonation(s, asNgo(owner.id), { donationId: reaching.id, approve: true })).campaignCompleted).toBe(true);
      const completed = await campaignRow(campaign.id);
      expect(completed).toMatchObject({ status: "completed", collectedAmount: 10_000 });
      expect(completed.completedAt).toBeInstanceOf(Date);

      // The money was paid before the campaign completed: approving it still counts, and completion stays as it was.
      const outcome = await decideCashDonation(s, asNgo(owner.id), { donationId: late.id, approve: true });
      expect(outcome).toMatchObject({ changed: true, campaignCompleted: false, receiptNumber: 3 });
      const after = await campaignRow(campaign.id);
      expect(after).toMatchObject({ status: "completed", collectedAmount: 12_000 });
      expect(after.completedAt).toEqual(completed.completedAt);
    });

    it("ids that are not UUIDs, or of no donation, are not found", async () => {
      const { owner } = await scene();
      for (const id of ["not-a-uuid", "", "' or 1=1 --", `${randomUUID()}0`, randomUUID()]) {
        expect(await failure(decideCashDonation(s, asNgo(owner.id), { donationId: id, approve: true }))).toEqual(NOT_FOUND);
        expect(await failure(decideCashDonation(s, asNgo(owner.id), { donationId: id, approve: false, reason: "x" }))).toEqual(NOT_FOUND);
        expect(await failure(reviewDetail(s.db, owner, id))).toEqual(NOT_FOUND);
      }
    });
  });

  describe("the review queue", () => {
    it("lists only the NGO's own pending cash donations, oldest first, a page at a time, filtered by campaign", async () => {
      const owner = await ngo();
      const partner = await ngo();
      const other = await ngo();
      const donor = await makeUser(s.db, "donor", { name: "Ayesha" });
      const c1 = await makeCampaign(s.db, owner.id, { title: `Alpha wells ${randomUUID().slice(0, 6)}`, partners: [partner.id] });
      const c2 = await makeCampaign(s.db, owner.id, { title: `Bravo meals ${randomUUID().slice(0, 6)}` });
      const otherCampaign = await makeCampaign(s.db, other.id);
      const t0 = Date.now() - 24 * 3600 * 1000;
      const at = (minute: number) => new Date(t0 + minute * 60_000);

      // Made in an order unlike their dates: the queue sorts by when they were given.
      const minutes = [7, 2, 11, 0, 5, 9, 1, 10, 3, 8, 6, 4];
      const mine = new Map<number, string>();
      for (const [i, minute] of minutes.entries()) {
        const d = await makeCashDonation(s, i % 3 === 0 ? c2 : c1, donor.id, { amount: 100 + minute, createdAt: at(minute) });
        mine.set(minute, d.id);
      }
      // Not in the owner's queue: decided, in-kind, paid to the partner, paid to another NGO.
      const approved = await makeCashDonation(s, c1, donor.id, { createdAt: at(-10) });
      await decideCashDonation(s, asNgo(owner.id), { donationId: approved.id, approve: true });
      const rejected = await makeCashDonation(s, c1, donor.id, { createdAt: at(-9) });
      await decideCashDonation(s, asNgo(owner.id), { donationId: rejected.id, approve: false, reason: "No transfer" });
      await makeDonation(s.db, c1, donor.id, { kind: "in_kind", createdAt: at(-8) });
      const toPartner = await makeCashDonation(s, { id: c1.id, ownerId: partner.id }, donor.id, { createdAt: at(-7) });
      await makeCashDonation(s, otherCampaign, donor.id, { createdAt: at(-6) });

      const page1 = await reviewQueue(s.db, owner, { page: 1 });
      const page2 = await reviewQueue(s.db, owner, { page: 2 });
      expect(page1).toMatchObject({ page: 1, pages: 2, total: 12 });
      expect(page1.rows).toHaveLength(PAGE_SIZE);
      expect(page2).toMatchObject({ page: 2, pages: 2, total: 12 });
      expect(page2.rows).toHaveLength(12 - PAGE_SIZE);
      const sorted = [...minutes].sort((a, b) => a - b);
      expect([...page1.rows, ...page2.rows].map((r) => r.id)).toEqual(sorted.map((m) => mine.get(m)));
      expect(page1.rows[0]).toMatchObject({
        amount: 100,
        method: "jazzcash",
        phone: "03001234567",
        donorEmail: donor.email,
        donorName: "Ayesha Donor",
        duplicateTransaction: false,
        duplicateImage: false,
      });
      expect(page1.rows[0]!.campaignTitle).toMatch(/^(Alpha|Bravo)/);
      expect((await reviewQueue(s.db, owner, { page: 3 })).rows).toHaveLength(0);

      const onlyC2 = await reviewQueue(s.db, owner, { page: 1, campaignId: c2.id });
      expect(onlyC2.total).toBe(4);
      expect(onlyC2.rows.every((r) => r.campaignId === c2.id && r.campaignTitle === c2.title)).toBe(true);
      expect(onlyC2.rows.map((r) => r.createdAt.getTime())).toEqual(
        [...onlyC2.rows.map((r) => r.createdAt.getTime())].sort((a, b) => a - b),
      );
      // Another NGO's campaign filters to nothing; an odd filter is ignored.
      expect((await reviewQueue(s.db, owner, { page: 1, campaignId: otherCampaign.id })).total).toBe(0);
      expect((await reviewQueue(s.db, owner, { page: 1, campaignId: "<script>" })).total).toBe(12);

      expect(await reviewCampaigns(s.db, owner)).toEqual([
        { id: c1.id, title: c1.title },
        { id: c2.id, title: c2.title },
      ]);
      const partnerQueue = await reviewQueue(s.db, partner, { page: 1 });
      expect(partnerQueue.rows.map((r) => r.id)).toEqual([toPartner.id]);
      expect(await reviewCampaigns(s.db, partner)).toEqual([{ id: c1.id, title: c1.title }]);

      // The detail is the NGO's own only.
      expect((await reviewDetail(s.db, owner, mine.get(0)!)).status).toBe("pending");
      expect(await failure(reviewDetail(s.db, owner, toPartner.id))).toEqual(NOT_FOUND);
      expect(await failure(reviewDetail(s.db, other, mine.get(0)!))).toEqual(NOT_FOUND);
      // A decided donation of its own can still be opened, with its outcome.
      expect(await reviewDetail(s.db, owner, rejected.id)).toMatchObject({ status: "rejected", rejectionReason: "No transfer" });
    });

    it("reviewCampaigns: the campaigns with cash waiting for the NGO's review, from the tallies; one drops out when its last is decided and comes back with a new one, and a partner's cash is its own", async () => {
      const owner = await ngo();
      const partner = await ngo();
      const donor = await makeUser(s.db, "donor");
      const titled = (title: string, partners: string[] = []) =>
        makeCampaign(s.db, owner.id, { title: `${title} ${randomUUID().slice(0, 6)}`, partners });
      const waiting = await titled("Alpha");
      const decided = await titled("Bravo");
      const goods = await titled("Charlie");
      const joint = await titled("Delta", [partner.id]);
      const decide = (donationId: string, approve: boolean) =>
        decideCashDonation(s, asNgo(owner.id), approve ? { donationId, approve } : { donationId, approve, reason: "No transfer" });
      const first = await makeCashDonation(s, waiting, donor.id);
      // Not waiting for the review the page offers: cash decided either way, and goods (pending like the cash).
      await decide((await makeCashDonation(s, decided, donor.id)).id, true);
      const disapproved = await makeCashDonation(s, decided, donor.id);
      await decide(disapproved.id, false);
      await makeDonation(s.db, goods, donor.id, { kind: "in_kind" });
      // Cash given to the partner through the joint campaign waits for the partner, not the owner.
      await makeCashDonation(s, { id: joint.id, ownerId: partner.id }, donor.id);
      const ids = async (actor: typeof owner) => (await reviewCampaigns(s.db, actor)).map((c) => c.id);
      expect(await ids(owner)).toEqual([waiting.id]);
      expect(await ids(partner)).toEqual([joint.id]);

      // The tally rows of the state they left stay at zero: they do not keep the campaign in the filter.
      const second = await makeCashDonation(s, waiting, donor.id);
      await decide(first.id, true);
      expect(await ids(owner)).toEqual([waiting.id]);
      await decide(second.id, false);
      expect(await ids(owner)).toEqual([]);
      // A disapproved gift answered with a corrected proof waits again (decision 025).
      await s.db.update(donations).set({ status: "pending" }).where(eq(donations.id, disapproved.id));
      expect(await ids(owner)).toEqual([decided.id]);
      await makeCashDonation(s, waiting, donor.id);
      expect(await ids(owner)).toEqual([waiting.id, decided.id]);
      expect(await ids(partner)).toEqual([joint.id]);
    });

    it("flags a transaction ID used on another donation, naming the campaign only when it is the NGO's own", async () => {
      const owner = await ngo();
      const other = await ngo();
      const donor = await makeUser(s.db, "donor");
      const otherDonor = await makeUser(s.db, "donor");
      const campaign = await makeCampaign(s.db, owner.id);
      const otherCampaign = await makeCampaign(s.db, other.id);
      const tid = normalisedTid(typedTid());

      const first = await makeCashDonation(s, campaign, donor.id, { transactionId: tid, createdAt: new Date(Date.now() - 60_000) });
      const elsewhere = await makeCashDonation(s, otherCampaign, otherDonor.id, { transactionId: tid });
      // The same ID typed differently is the same ID.
      const second = await submitCashDonation(
        s,
        donor,
        proofValues(await proofFields(campaign, owner.id, { transactionId: `${tid.slice(0, 4).toLowerCase()} ${tid.slice(4)}` })),
      );
      const unrelated = await makeCashDonation(s, campaign, donor.id);

      const queue = await reviewQueue(s.db, owner, { page: 1 });
      const flag = (id: string) => queue.rows.find((r) => r.id === id)!.duplicateTransaction;
      expect(flag(first.id)).toBe(true);
      expect(flag(second.id)).toBe(true);
      expect(flag(unrelated.id)).toBe(false);

      const detail = await reviewDetail(s.db, owner, second.id);
      expect(detail.transactionId).toBe(tid);
      expect(detail.proofKey).toMatch(/^proof\//);
      const related = new Map(detail.sameTransaction.map((r) => [r.id, r]));
      expect(related.size).toBe(2);
      expect(related.get(first.id)).toMatchObject({ campaignTitle: campaign.title, sameDonor: true, status: "pending" });
      // Another NGO's donation: the reviewer learns that it exists, not whose it is.
      expect(related.get(elsewhere.id)).toMatchObject({ campaignTitle: null, sameDonor: false });
      expect((await reviewDetail(s.db, owner, unrelated.id)).sameTransaction).toEqual([]);
    });

    it("flags the same screenshot sent again, whatever the file is called or saved as", async () => {
      const owner = await ngo();
      const other = await ngo();
      const donor = await makeUser(s.db, "donor");
      const campaign = await makeCampaign(s.db, owner.id);
      const otherCampaign = await makeCampaign(s.db, other.id);
      const seed = Math.floor(Math.random() * 2 ** 30);
      const png = await makeProofPng(seed);
      const submit = async (file: File) =>
        submitCashDonation(s, donor, proofValues(await proofFields(campaign, owner.id, { screenshot: file })));

      const original = await submit(pngFile(png));
      const again = await submit(pngFile(await makeProofPng(seed), "IMG_0002.png"));
      const resaved = await submit(pngFile(await sharp(png).webp({ lossless: true }).toBuffer(), "proof.webp", "image/webp"));
      const elsewhere = await makeCashDonation(s, otherCampaign, donor.id, { proof: png });
      const unrelated = await submit(pngFile(await makeProofPng()));

      const queue = await reviewQueue(s.db, owner, { page: 1 });
      const flag = (id: string) => queue.rows.find((r) => r.id === id)!.duplicateImage;
      expect(flag(original.id)).toBe(true);
      expect(flag(again.id)).toBe(true);
      expect(flag(resaved.id)).toBe(true);
      expect(flag(unrelated.id)).toBe(false);

      const detail = await reviewDetail(s.db, owner, original.id);
      const related = new Map(detail.sameImage.map((r) => [r.id, r]));
      expect([...related.keys()].sort()).toEqual([again.id, resaved.id, elsewhere.id].sort());
      expect(related.get(again.id)).toMatchObject({ campaignTitle: campaign.title, sameDonor: true, status: "pending" });
      // Another NGO's donation: the reviewer learns that it exists, not whose it is.
      expect(related.get(elsewhere.id)).toMatchObject({ campaignTitle: null, sameDonor: true });
      expect((await reviewDetail(s.db, owner, unrelated.id)).sameImage).toEqual([]);
    });

    it("plain images have no fingerprint: blank screenshots are not duplicates of each other", async () => {
      const { owner, donor, campaign } = await scene();
      const blank = (width: number, height: number) =>
        sharp({ create: { width, height, channels: 3, background: "#ffffff" } })
          .png()
          .toBuffer();
      const a = await submitCashDonation(
        s,
        donor,
        proofValues(await proofFields(campaign, owner.id, { screenshot: pngFile(await blank(360, 640)) })),
      );
      const b = await submitCashDonation(
        s,
        donor,
        proofValues(await proofFields(campaign, owner.id, { screenshot: pngFile(await blank(720, 1280)) })),
      );
      expect((await donationRow(a.id)).proofFingerprint).toBeNull();
      const queue = await reviewQueue(s.db, owner, { page: 1 });
      expect(queue.rows.filter((r) => r.id === a.id || r.id === b.id).map((r) => r.duplicateImage)).toEqual([false, false]);
    });

    it("a screenshot re-encoded as a smaller JPEG and sent again is caught by its transaction ID", async () => {
      const { owner, donor, campaign } = await scene();
      const tid = normalisedTid(typedTid());
      const png = await walletScreenshot({
        method: "jazzcash",
        amount: 6_000,
        transactionId: tid,
        at: new Date(),
        to: "Owner Trust",
        from: "Ali",
      });
      // What a messaging app does to a forwarded screenshot.
      const forwarded = await sharp(png).resize(270).jpeg({ quality: 70 }).toBuffer();
      const first = await submitCashDonation(
        s,
        donor,
        proofValues(await proofFields(campaign, owner.id, { screenshot: pngFile(png), transactionId: tid })),
      );
      const second = await submitCashDonation(
        s,
        donor,
        proofValues(
          await proofFields(campaign, owner.id, { screenshot: pngFile(forwarded, "IMG-WA0001.jpg", "image/jpeg"), transactionId: tid }),
        ),
      );
      const queue = await reviewQueue(s.db, owner, { page: 1 });
      expect(queue.rows.find((r) => r.id === first.id)!.duplicateTransaction).toBe(true);
      expect(queue.rows.find((r) => r.id === second.id)!.duplicateTransaction).toBe(true);
    });

    it("different payments shown on the same wallet screen are not flagged as the same image", async () => {
      const { owner, donor, campaign } = await scene();
      const ids: string[] = [];
      for (const [i, amount] of [2_500, 5_000, 12_000, 40_000, 7_250].entries()) {
        const transactionId = normalisedTid(typedTid());
        const png = await walletScreenshot({
          method: "jazzcash",
          amount,
          transactionId,
          at: new Date(Date.UTC(2026, 2, 3 + i, 6 + i, 10 + i)),
          to: "Roshni Welfare Trust",
          from: "Ayesha Khan",
        });
        const { id } = await submitCashDonation(
          s,
          donor,
          proofValues(await proofFields(campaign, owner.id, { screenshot: pngFile(png), transactionId })),
        );
        ids.push(id);
      }
      const queue = await reviewQueue(s.db, owner, { page: 1 });
      expect(queue.rows.filter((r) => ids.includes(r.id)).map((r) => r.duplicateImage)).toEqual(ids.map(() => false));
    });
  });

  describe("the thank-you page", () => {
    it("shows a donor their own donation only", async () => {
      const { owner, donor, campaign } = await scene();
      const other = await makeUser(s.db, "donor");
      const { id } = await submitCashDonation(
        s,
        donor,
        proofValues(await proofFields(campaign, owner.id, { amount: "1,500", method: "bank" })),
      );
      expect(await cashDonationOfDonor(s.db, asDonor(donor.id), id)).toMatchObject({
        id,
        amount: 1_500,
        method: "bank",
        status: "pending",
        campaignTitle: campaign.title,
        campaignSlug: campaign.slug,
      });
      expect(await failure(cashDonationOfDonor(s.db, asDonor(other.id), id))).toEqual(NOT_FOUND);
      expect(await failure(cashDonationOfDonor(s.db, asNgo(owner.id), id))).toEqual(NOT_FOUND);
      expect(await failure(cashDonationOfDonor(s.db, asDonor(donor.id), "not-a-uuid"))).toEqual(NOT_FOUND);
    });
  });

  describe("who may see a payment screenshot", () => {
    it("the donor who uploaded it, the NGO it was paid to and the admin; nobody else", async () => {
      const owner = await ngo();
      const partner = await ngo();
      const stranger = await ngo();
      const donor = await makeUser(s.db, "donor");
      const otherDonor = await makeUser(s.db, "donor");
      const rider = await makeUser(s.db, "rider");
      const admin = await makeUser(s.db, "admin");
      const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
      const toPartner = await submitCashDonation(s, donor, proofValues(await proofFields(campaign, partner.id)));
      const key = (await donationRow(toPartner.id)).proofKey!;

      const read = (user: SessionUser | null) => findFileForUser(s, key, user);
      const mine = await read(asSessionUser(donor, "donor"));
      expect(mine).toMatchObject({ contentType: "image/webp", public: false });
      expect((await sharp(mine!.body).metadata()).format).toBe("webp");
      expect(await read(asSessionUser(partner, "ngo"))).toMatchObject({ contentType: "image/webp", public: false });
      expect(await read(asSessionUser(admin, "admin"))).toMatchObject({ contentType: "image/webp" });

      expect(await read(asSessionUser(otherDonor, "donor"))).toBeNull();
      expect(await read(asSessionUser(stranger, "ngo"))).toBeNull();
      // The owner of the joint campaign was not paid this donation.
      expect(await read(asSessionUser(owner, "ngo"))).toBeNull();
      expect(await read(asSessionUser(rider, "rider"))).toBeNull();
      expect(await read(null)).toBeNull();
    });
  });
});
