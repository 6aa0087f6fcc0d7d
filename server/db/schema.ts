import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  customType,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { PAYMENT_METHODS, PICKUP_SLOTS } from "#shared/constants.ts";
import { LANGS } from "#shared/i18n/i18n.ts";
import { ROLES } from "#shared/roles.ts";
import {
  APPLICATION_STATUSES,
  CAMPAIGN_CAUSES,
  CAMPAIGN_STATUSES,
  CHECK_KINDS,
  DONATION_KINDS,
  DONATION_STATUSES,
  FILE_KINDS,
  FUND_KINDS,
  MAIL_STATUSES,
  MATCH_RULES,
  PARTNERSHIP_DIRECTIONS,
  PARTNERSHIP_STATUSES,
  PICKUP_EVENTS,
  PICKUP_STATUSES,
  POSITION_STATUSES,
  REGISTRATION_AUTHORITIES,
  SPENDING_STATUSES,
  STATEMENT_LINE_STATUSES,
  SUPPORT_WORD_STATUSES,
  UPDATE_STATUSES,
  VERIFICATION_STATUSES,
} from "#shared/statuses.ts";

export const roleEnum = pgEnum("user_role", ROLES);
export const paymentMethodEnum = pgEnum("payment_method", PAYMENT_METHODS);
export const verificationEnum = pgEnum("verification_status", VERIFICATION_STATUSES);
export const languageEnum = pgEnum("user_language", LANGS);

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Always stored lower-cased: addresses are unique case-insensitively. */
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: roleEnum("role").notNull(),
    verification: verificationEnum("verification").notNull(),
    rejectionReason: text("rejection_reason"),
    /** When a rejected NGO or rider last corrected and sent its sign-up again: the administrator's queue marks it. */
    resubmittedAt: timestamp("resubmitted_at", { withTimezone: true }),
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    /** When the administrator accepted this NGO or rider (the vetting record the NGO's public profile shows). */
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /** The language the person last used the app in; their emails are written in it. */
    language: languageEnum("language").notNull().default("en"),
    ...timestamps,
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), index("users_role_verification_idx").on(t.role, t.verification)],
);

export const ngoProfiles = pgTable(
  "ngo_profiles",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    address: text("address").notNull(),
    registrationNumber: text("registration_number").notNull(),
    contactNumber: text("contact_number").notNull(),
    logoKey: text("logo_key"),
    jazzcashNumber: text("jazzcash_number"),
    easypaisaNumber: text("easypaisa_number"),
    bankName: text("bank_name"),
    bankAccountTitle: text("bank_account_title"),
    bankAccountNumber: text("bank_account_number"),
    /** The last receipt number this NGO issued; raised in the transaction that approves a donation. */
    receiptCounter: integer("receipt_counter").notNull().default(0),
    /**
     * The NGO's number on the platform, given once when its profile is made (existing rows are numbered when the
     * column is added): the prefix of its receipt numbers ("N042-000123"), so no two NGOs' receipts read alike
     * (decision 027).
     */
    receiptSeries: integer("receipt_series").notNull().unique("ngo_profiles_receipt_series_unique").generatedByDefaultAsIdentity(),
    /** When a payment account was last added or changed: donors are told for a day after (a hijacked account shows). */
    paymentChangedAt: timestamp("payment_changed_at", { withTimezone: true }),
  },
  // The pickers' search finds words in an NGO's name (decision 044).
  (t) => [index("ngo_profiles_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops"))],
);

export const donorProfiles = pgTable("donor_profiles", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  address: text("address").notNull(),
  contactNumber: text("contact_number").notNull(),
  pictureKey: text("picture_key"),
});

export const riderProfiles = pgTable("rider_profiles", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  contactNumber: text("contact_number").notNull(),
  cnic: text("cnic").notNull(),
  pictureKey: text("picture_key"),
  /** Where the rider usually starts from (a place chosen in the rider's profile); NGOs see the nearest riders first. */
  areaLabel: text("area_label"),
  /** The same place's label in Urdu, where the gazetteer has one (decision 038); Urdu readers are shown it. */
  areaLabelUr: text("area_label_ur"),
  areaLat: doublePrecision("area_lat"),
  areaLng: doublePrecision("area_lng"),
});

export const sessions = pgTable(
  "sessions",
  {
    /** SHA-256 of the cookie token; the token itself is never stored. */
    id: text("id").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const passwordResets = pgTable(
  "password_resets",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull(),
});

/**
 * `id` comes from a sequence at insert, so it is the order in which entries were written: an entry whose
 * transaction waited on a row lock gets a later id than the one it waited for. Lists order by it. `created_at`
 * is the clock at insert (clock_timestamp(), not the transaction's start), so the time shown agrees.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetUserId: uuid("target_user_id").references(() => users.id, { onDelete: "set null" }),
    details: jsonb("details").$type<Record<string, string | number | null>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index("audit_log_created_idx").on(t.createdAt)],
);

export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A translation key under the `notifications` namespace. */
    type: text("type").notNull(),
    params: jsonb("params").$type<Record<string, string>>().notNull().default({}),
    link: text("link"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt),
    // At most one unread "words wait for moderation" notice per account and campaign (decision 050): a donor's words
    // insert it with ON CONFLICT DO NOTHING, so a hundred words at once tell each NGO once, and reading it makes room.
    uniqueIndex("notifications_words_waiting_unread_unique")
      .on(t.userId, sql`(${t.params}->>'campaignId')`)
      .where(sql`${t.type} = 'supportWordsWaiting' and ${t.readAt} is null`),
  ],
);

export const mailStatusEnum = pgEnum("mail_status", MAIL_STATUSES);

export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    status: mailStatusEnum("status").notNull(),
    /** The last failure's message (SMTP's answer), kept while it is retried and after it is given up. */
    error: text("error"),
    /** Tries made to hand it to the mail server. */
    attempts: integer("attempts").notNull().default(0),
    /**
     * The body of a mail holding a private link, kept only until it is sent or given up (`body` holds
     * MAIL_BODY_WITHHELD from the start); never read by the outbox page.
     */
    secretBody: text("secret_body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mail_outbox_created_idx").on(t.createdAt)],
);

export const fileKindEnum = pgEnum("file_kind", FILE_KINDS);

export const files = pgTable(
  "files",
  {
    key: text("key").primaryKey(),
    kind: fileKindEnum("kind").notNull(),
    ownerId: uuid("owner_id").references(() => users.id, { onDelete: "set null" }),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    /**
     * The widths of the narrower copies stored beside this picture (PICTURE_WIDTHS it is wider than, keys
     * `pictureVariantKey`); empty when it needs none. Null only for a picture stored before copies were made,
     * until the maintenance round makes them (decision 034).
     */
    widths: integer("widths").array(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("files_owner_idx").on(t.ownerId),
    // The pictures still waiting for their copies: the maintenance round's query, empty once they are made.
    index("files_widths_pending_idx")
      .on(t.key)
      .where(sql`${t.widths} is null`),
  ],
);

/**
 * Campaign states, one vocabulary everywhere: `active` (the specification's "Incomplete", listed under On
 * Going), `completed` (its "Complete": the approved total met the target, or the NGO closed it; listed under
 * Successful) and `archived` (deleted by the NGO while it had donations, kept so no donation loses its campaign).
 */
export const campaignStatusEnum = pgEnum("campaign_status", CAMPAIGN_STATUSES);
export const fundKindEnum = pgEnum("fund_kind", FUND_KINDS);
export const campaignCauseEnum = pgEnum("campaign_cause", CAMPAIGN_CAUSES);

export const campaigns = pgTable(
  "campaigns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Readable and stable: chosen from the title at creation and kept when the title changes, so shared links live on. */
    slug: text("slug").notNull(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** Trimmed with inner whitespace collapsed; unique among active campaigns, case-insensitively. */
    title: text("title").notNull(),
    description: text("description").notNull(),
    /** Whole rupees. */
    targetAmount: bigint("target_amount", { mode: "number" }).notNull(),
    /** Whole rupees: the sum of every partner's approved cash donations, changed only with the donation's status. */
    collectedAmount: bigint("collected_amount", { mode: "number" }).notNull().default(0),
    otherItems: text("other_items"),
    /** The place in English; `location_label_ur` the same place in Urdu where the gazetteer has it (decision 038). */
    locationLabel: text("location_label").notNull(),
    locationLabelUr: text("location_label_ur"),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    pictureKey: text("picture_key"),
    /**
     * The kinds of giving it takes (decision 048), in FUND_KINDS order: always general; Zakat only while the NGO's
     * attestation (`zakat_attestations`) is current, which the domain keeps in step in the same transaction.
     */
    acceptedFunds: fundKindEnum("accepted_funds")
      .array()
      .notNull()
      .default(sql`'{general}'::fund_kind[]`),
    /** What it helps with; campaigns made before causes existed are "other" until their NGO edits them. */
    cause: campaignCauseEnum("cause").notNull().default("other"),
    status: campaignStatusEnum("status").notNull().default("active"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("campaigns_slug_unique").on(t.slug),
    uniqueIndex("campaigns_active_title_unique")
      .on(sql`lower(${t.title})`)
      .where(sql`${t.status} = 'active'`),
    // An NGO's own campaigns in a tab, newest first (ties by id): /campaigns reads its page in index order (decision 044).
    index("campaigns_owner_status_idx").on(t.ownerId, t.status, t.createdAt, t.id),
    // The map's campaigns in a box, and its edge strips (decision 044): by latitude, and by longitude for the west and east
    // edges; with the owner and id, so a strip is read from the index alone.
    index("campaigns_status_position_idx").on(t.status, t.lat, t.lng, t.ownerId, t.id),
    index("campaigns_status_lng_idx").on(t.status, t.lng, t.lat, t.ownerId, t.id),
    // The pickers' and the map list's order (newest first, ties by id): a page is read in index order (decision 044).
    index("campaigns_status_created_idx").on(t.status, t.createdAt, t.id),
    // An NGO's campaigns A–Z: the filters of its lists read the first ones that qualify (decision 044).
    index("campaigns_owner_title_idx").on(t.ownerId, sql`lower(${t.title})`, t.id),
    // Searches for words inside a title or a place (ILIKE '%q%') use trigram indexes, not a scan (decision 044).
    index("campaigns_title_trgm_idx").using("gin", t.title.op("gin_trgm_ops")),
    index("campaigns_location_trgm_idx").using("gin", t.locationLabel.op("gin_trgm_ops")),
    index("campaigns_location_ur_trgm_idx").using("gin", t.locationLabelUr.op("gin_trgm_ops")),
    // An NGO's own campaigns searched by title: each title's trigrams keyed by its owner (ngo_title_trigrams, migration
    // 0032), so a search of one NGO's list reads that NGO's matches, not every campaign with the word (decision 044).
    index("campaigns_owner_title_trgm_idx")
      .using("gin", sql`ngo_title_trigrams(${t.ownerId}, ${t.title})`)
      .with({ fastupdate: false }),
    check("campaigns_accepts_general", sql`'general' = any(${t.acceptedFunds})`),
  ],
);

/**
 * The NGO's attestation that a campaign's gifts may be spent as Zakat (decision 048): the words it attested to as it
 * read them, by which account and when; withdrawing it (or the campaign no longer taking Zakat) sets `withdrawn_*`,
 * and attesting again adds a row, so the history stays. At most one current (not withdrawn) per campaign.
 */
export const zakatAttestations = pgTable(
  "zakat_attestations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    /** The words attested to, in the language the NGO read them (`lang`). */
    statement: text("statement").notNull(),
    lang: languageEnum("lang").notNull(),
    attestedBy: uuid("attested_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    attestedAt: timestamp("attested_at", { withTimezone: true }).notNull().defaultNow(),
    /** Made by migration 0022 from the earlier yes/no Zakat flag, which its owner had set. */
    carriedOver: boolean("carried_over").notNull().default(false),
    withdrawnBy: uuid("withdrawn_by").references(() => users.id, { onDelete: "restrict" }),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("zakat_attestations_current_unique")
      .on(t.campaignId)
      .where(sql`${t.withdrawnAt} is null`),
    index("zakat_attestations_campaign_idx").on(t.campaignId, t.attestedAt),
    // The admin's list, newest first, a page at a time.
    index("zakat_attestations_attested_idx").on(t.attestedAt, t.id),
  ],
);

/** How a partnership began: the owner invited an NGO, or an NGO asked to join (e.g. after a duplicate title). */
export const partnershipDirectionEnum = pgEnum("partnership_direction", PARTNERSHIP_DIRECTIONS);
export const partnershipStatusEnum = pgEnum("partnership_status", PARTNERSHIP_STATUSES);

/** The partner NGOs of a joint campaign besides its owner. Only `accepted` rows make an NGO a partner. */
export const campaignPartners = pgTable(
  "campaign_partners",
  {
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    direction: partnershipDirectionEnum("direction").notNull(),
    status: partnershipStatusEnum("status").notNull().default("pending"),
    respondedAt: timestamp("responded_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.ngoId] }), index("campaign_partners_ngo_status_idx").on(t.ngoId, t.status)],
);

/**
 * A donor's intention to pay one NGO of a campaign by one method, made when the payment screen is shown. Its short
 * code (server/domain/donations/pledges.ts) goes into the transfer's remark, and the gift made with the proof form
 * points back at it (`donations.pledge_id`, unique: one pledge, one gift).
 */
export const pledges = pgTable(
  "pledges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Six characters without 0/O or 1/I, shown as EK-XXX-XXX; unique across the platform. */
    code: text("code").notNull(),
    donorId: uuid("donor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    recipientNgoId: uuid("recipient_ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: paymentMethodEnum("method").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("pledges_code_unique").on(t.code),
    index("pledges_donor_target_idx").on(t.donorId, t.campaignId, t.recipientNgoId, t.method, t.createdAt),
  ],
);

export const donationKindEnum = pgEnum("donation_kind", DONATION_KINDS);
export const donationStatusEnum = pgEnum("donation_status", DONATION_STATUSES);

/**
 * Donations to a campaign, paid to (or collected for) one NGO of it: the owner or a partner. The cash and
 * in-kind flows add their own columns; campaign analytics and the delete-or-archive rule read these.
 */
export const donations = pgTable(
  "donations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "restrict" }),
    donorId: uuid("donor_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    recipientNgoId: uuid("recipient_ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    kind: donationKindEnum("kind").notNull(),
    status: donationStatusEnum("status").notNull().default("pending"),
    /** Whole rupees, for cash. */
    amount: bigint("amount", { mode: "number" }),
    method: paymentMethodEnum("method"),
    /** What is given, for in-kind. */
    items: text("items"),
    /** The donor's phone number for this donation (11 digits). */
    phone: text("phone"),
    /** Cash: the transfer's transaction ID as the donor typed it, upper-cased without spaces. */
    transactionId: text("transaction_id"),
    /** Cash: the stored payment screenshot (a private file). */
    proofKey: text("proof_key"),
    /** Cash: a 64-bit difference hash of the screenshot, so a reused image is flagged even when re-encoded or resized. */
    proofFingerprint: text("proof_fingerprint"),
    /** Chosen by the form when it is shown: a resubmission of the same form finds the donation it already made. */
    idempotencyKey: text("idempotency_key"),
    rejectionReason: text("rejection_reason"),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** Cash: numbered per receiving NGO when approved. */
    receiptNumber: integer("receipt_number"),
    /** Cash: the pledge the donor was shown before paying; its code in a transfer's remark ties a statement line to this gift. */
    pledgeId: uuid("pledge_id").references(() => pledges.id, { onDelete: "restrict" }),
    /** Cash: when the donor was reminded that the NGO's statement does not show the transfer yet (once per gift). */
    remindedAt: timestamp("reminded_at", { withTimezone: true }),
    /** The kind of giving the donor chose for this gift (Zakat, Sadaqah, Fitrana, general): kept apart in every total. */
    fund: fundKindEnum("fund").notNull().default("general"),
    /** The donor chose to be named in the campaign's public ledger; otherwise the public sees "anonymous" (the NGO always sees the donor). */
    showName: boolean("show_name").notNull().default(false),
    /** Given in someone else's name (a parent, a late relative), as the donor wrote it: on the receipt and the statement. */
    inNameOf: text("in_name_of"),
    /**
     * The campaign's title, kept by the database (migration 0031: set from the campaign on insert, copied on a rename):
     * the NGO history's "by campaign" order reads it from an index of the NGO's donations, where the title on
     * `campaigns` needed every donation joined and sorted. Never written by the application; shown titles come from
     * `campaigns`.
     */
    campaignTitle: text("campaign_title").notNull().default(""),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("donations_pledge_unique").on(t.pledgeId),
    index("donations_campaign_status_idx").on(t.campaignId, t.status),
    // A campaign's donors (an approved gift): the public page's count and an update's notices read only the index (decision 050).
    index("donations_campaign_donor_approved_idx")
      .on(t.campaignId, t.donorId)
      .where(sql`${t.status} = 'approved'`),
    // An NGO's donations of a kind in the order of its lists and its export (history, the goods queue): a page or an
    // export batch is read from the index, never sorted from all of them; with the state, its review queue and its
    // totals (decision 044).
    index("donations_recipient_kind_created_idx").on(t.recipientNgoId, t.kind, t.createdAt, t.id),
    index("donations_recipient_kind_status_idx").on(t.recipientNgoId, t.kind, t.status, t.createdAt, t.id),
    // The history's other orders (decision 044, migration 0031): by amount (walked either way) and by campaign A–Z, each
    // campaign's gifts oldest first; a page deep in either starts at its cursor's row in the index.
    index("donations_recipient_kind_amount_idx").on(t.recipientNgoId, t.kind, t.amount, t.createdAt, t.id),
    index("donations_recipient_kind_campaign_idx").on(
      t.recipientNgoId,
      t.kind,
      sql`lower(${t.campaignTitle})`,
      t.campaignId,
      t.createdAt,
      t.id,
    ),
    // The donor's history (/dvh) in its order with the id that breaks ties: a page's ids are read from the index alone,
    // however deep the page (decision 044).
    index("donations_donor_created_idx").on(t.donorId, t.createdAt, t.id),
    uniqueIndex("donations_donor_idempotency_unique").on(t.donorId, t.idempotencyKey),
    uniqueIndex("donations_receipt_unique").on(t.recipientNgoId, t.receiptNumber),
    index("donations_transaction_idx").on(t.transactionId),
    index("donations_fingerprint_idx").on(t.proofFingerprint),
  ],
);

/**
 * A donor's one answer to the disapproval of a cash gift (decision 025): their message and a corrected proof sent
 * to the same gift, which goes back to the NGO's queue. One per gift (the unique index), ever. The row keeps what
 * the answer replaced (the NGO's reason and decision, the earlier transaction ID and screenshot), so the NGO can
 * read the gift's history; the gift itself carries the corrected proof.
 */
export const donationReplies = pgTable(
  "donation_replies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    donationId: uuid("donation_id")
      .notNull()
      .references(() => donations.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    /** The disapproval answered: its reason, who decided and when. */
    rejectionReason: text("rejection_reason").notNull(),
    rejectedBy: uuid("rejected_by").references(() => users.id, { onDelete: "set null" }),
    rejectedAt: timestamp("rejected_at", { withTimezone: true }),
    /** The proof before the correction; the screenshot stays readable by the gift's donor and NGO. */
    previousTransactionId: text("previous_transaction_id"),
    previousProofKey: text("previous_proof_key"),
    previousProofFingerprint: text("previous_proof_fingerprint"),
    /** The reply form's key: the same form sent again is answered as done. */
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [uniqueIndex("donation_replies_donation_unique").on(t.donationId), index("donation_replies_proof_idx").on(t.previousProofKey)],
);

/**
 * The pick-up of an in-kind donation, step by step: `new` (waiting for a rider) → `assigned` (waiting for the
 * rider's answer; a decline returns it to `new`) → `accepted` → `collected` (the donor's code was entered at the
 * door) → `delivered` (handed over at the NGO) → `received` (the NGO confirmed). The NGO may reassign or cancel
 * until the goods are collected.
 */
export const spendingStatusEnum = pgEnum("spending_status", SPENDING_STATUSES);

/**
 * What an NGO spent of a campaign's money (decision 049): written as a draft by the campaign's owner or an accepted
 * partner, with a document (an invoice or receipt, re-made: file kind `spending`), then published to the campaign's
 * public ledger. A published record is never changed: a correction is a new record naming the one it corrects
 * (`corrects_id`), and once that correction is published the totals count it instead.
 */
export const spendingRecords = pgTable(
  "spending_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "restrict" }),
    /** The NGO that spent it: the campaign's owner or a partner (shown on a joint campaign's ledger). */
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    fund: fundKindEnum("fund").notNull(),
    /** Whole rupees. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** The day it was spent (YYYY-MM-DD, Pakistan time). */
    spentOn: text("spent_on").notNull(),
    purpose: text("purpose").notNull(),
    /** The invoice or receipt (file kind `spending`): private while a draft, public once published. */
    documentKey: text("document_key").notNull(),
    /** The published record this one corrects, if any. */
    correctsId: uuid("corrects_id").references((): AnyPgColumn => spendingRecords.id, { onDelete: "restrict" }),
    status: spendingStatusEnum("status").notNull().default("draft"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    publishedBy: uuid("published_by").references(() => users.id, { onDelete: "set null" }),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** When the publisher confirmed that private data (names, numbers, CNICs) on the document is covered. */
    redactionConfirmedAt: timestamp("redaction_confirmed_at", { withTimezone: true }),
    /** The platform's administrator took the published record down (decision 049): who, when and why (told to the NGO). */
    takenDownBy: uuid("taken_down_by").references(() => users.id, { onDelete: "set null" }),
    takenDownAt: timestamp("taken_down_at", { withTimezone: true }),
    takedownReason: text("takedown_reason"),
    ...timestamps,
  },
  (t) => [
    // The public ledger's list, newest first, and each fund's total.
    index("spending_records_campaign_status_idx").on(t.campaignId, t.status, t.spentOn, t.id),
    // Who may read a document is looked up by its key (files.ts mayRead).
    index("spending_records_document_idx").on(t.documentKey),
    // A record is corrected at most once: a second correction corrects the correction.
    uniqueIndex("spending_records_corrects_published_unique")
      .on(t.correctsId)
      .where(sql`${t.status} = 'published'`),
    check("spending_records_amount_positive", sql`${t.amount} > 0`),
    check(
      "spending_records_published_whole",
      sql`${t.status} = 'draft' or (${t.publishedAt} is not null and ${t.redactionConfirmedAt} is not null)`,
    ),
    // Compared as text: the enum's new value cannot be named in the migration that adds it (PostgreSQL refuses an
    // "unsafe use of new value" in the same transaction).
    check(
      "spending_records_taken_down_whole",
      sql`(${t.status}::text = 'taken_down') = (${t.takenDownAt} is not null and ${t.takedownReason} is not null)`,
    ),
  ],
);

export const pickupStatusEnum = pgEnum("pickup_status", PICKUP_STATUSES);
export const pickupSlotEnum = pgEnum("pickup_slot", PICKUP_SLOTS);

export const pickups = pgTable(
  "pickups",
  {
    donationId: uuid("donation_id")
      .primaryKey()
      .references(() => donations.id, { onDelete: "cascade" }),
    /** House and street, as the donor wrote it for the rider. */
    address: text("address").notNull(),
    /** The area or town chosen from the place search, and the point (adjustable on a map). */
    areaLabel: text("area_label").notNull(),
    /** The same place's label in Urdu, where the gazetteer has one (decision 038). */
    areaLabelUr: text("area_label_ur"),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    /** The preferred pick-up day (YYYY-MM-DD, Pakistan time) and part of the day. */
    windowDate: text("window_date").notNull(),
    windowSlot: pickupSlotEnum("window_slot").notNull(),
    status: pickupStatusEnum("status").notNull().default("new"),
    riderId: uuid("rider_id").references(() => users.id, { onDelete: "set null" }),
    /**
     * Four digits shown to the donor in their history and entered by the rider at the door. Kept readable because
     * the donor must be able to see it again; it proves a meeting, not an identity, and its tries are limited.
     */
    code: text("code").notNull(),
    /** What actually arrived, as the NGO noted when confirming receipt. */
    receivedNote: text("received_note"),
    /**
     * Where the rider takes the goods: the NGO's drop-off point nearest the pick-up, chosen when the request is made
     * and again when a rider is assigned; none means the NGO's office address (it lists no points).
     */
    dropoffId: uuid("dropoff_id").references(() => dropoffPoints.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("pickups_rider_status_idx").on(t.riderId, t.status),
    index("pickups_status_idx").on(t.status),
    // A drop-off point's removal finds the pick-ups still going there.
    index("pickups_dropoff_idx")
      .on(t.dropoffId)
      .where(sql`${t.dropoffId} is not null`),
  ],
);

/**
 * How many campaigns each NGO owns in each state (decision 044): the donors' picker counts the campaigns it offers
 * from these few rows per NGO, and an NGO's campaign list counts its own from its row, not from every campaign. A
 * trigger on `campaigns` (migration 0022) keeps them in the statement that changes a campaign.
 */
export const campaignCounts = pgTable(
  "campaign_counts",
  {
    ownerId: uuid("owner_id").notNull(),
    status: campaignStatusEnum("status").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.status] })],
);

/**
 * Each partnership (any state) with the columns of its campaign that the NGO's lists filter and order by (decision
 * 044): the campaign list's partnered half reads an NGO's accepted partnerships in a state in the list's order, and
 * the lists' campaign filters read its partnerships A–Z, each from an index of this table and stopping at the page's
 * end, where they looked up every partnered campaign (2,000 for the busy NGO at 100×) and sorted them. The columns
 * carry the campaign's names (`id`, `status`, `title`, …) so a reader's condition on `campaigns` reads them unchanged
 * (`IdsWithin`); `partnership` is the partnership's state. Triggers on `campaign_partners` and `campaigns` (migration
 * 0028) keep them in the statement that changes either; `partneredDrift` compares them with the two tables.
 */
export const partneredCampaigns = pgTable(
  "partnered_campaigns",
  {
    ngoId: uuid("ngo_id").notNull(),
    /** The campaign's id. */
    id: uuid("id").notNull(),
    partnership: partnershipStatusEnum("partnership").notNull(),
    ownerId: uuid("owner_id").notNull(),
    status: campaignStatusEnum("status").notNull(),
    title: text("title").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.ngoId, t.id] }),
    index("partnered_campaigns_title_idx").on(t.ngoId, sql`lower(${t.title})`, t.id),
    // The campaign list's partnered half: accepted, and not the NGO's own (the domain refuses such a partnership; the
    // list reads that campaign as its own).
    index("partnered_campaigns_created_idx")
      .on(t.ngoId, t.status, t.createdAt, t.id)
      .where(sql`${t.partnership} = 'accepted' and ${t.ownerId} <> ${t.ngoId}`),
    index("partnered_campaigns_completed_idx")
      .on(t.ngoId, t.status, t.completedAt, t.id)
      .where(sql`${t.partnership} = 'accepted' and ${t.ownerId} <> ${t.ngoId}`),
    // The campaign list's partnered half searched by title: the trigrams keyed by the partner (as campaigns' own above).
    index("partnered_campaigns_ngo_title_trgm_idx")
      .using("gin", sql`ngo_title_trigrams(${t.ngoId}, ${t.title})`)
      .with({ fastupdate: false }),
  ],
);

/**
 * The map's clusters, aggregated ahead (decision 044): for each whole zoom level 0–12, the grid cells of the campaigns
 * the map shows (active, owner in good standing), with how many, the sums of their coordinates (for the mean), their
 * bounds and, when a cell holds one, its id. The cells of level z are the map's cells at zoom z (`cellSize`), 84.375° /
 * 2^z on a side, so each is exactly four of level z + 1. Triggers on `campaigns` and `users` mark the level-12 cells a
 * change touches (`map_cell_marks`); `map_cells_fold()`, called before the map is read, recounts the marked cells from
 * the campaigns, then each coarser level from its four finer cells (migrations 0024 and 0030).
 */
export const mapCells = pgTable(
  "map_cells",
  {
    zoom: integer("zoom").notNull(),
    gy: integer("gy").notNull(),
    gx: integer("gx").notNull(),
    n: integer("n").notNull(),
    sumLat: doublePrecision("sum_lat").notNull(),
    sumLng: doublePrecision("sum_lng").notNull(),
    south: doublePrecision("south").notNull(),
    west: doublePrecision("west").notNull(),
    north: doublePrecision("north").notNull(),
    east: doublePrecision("east").notNull(),
    /** The campaign's id (as text) when the cell holds exactly one. */
    single: text("single_id"),
  },
  (t) => [primaryKey({ columns: [t.zoom, t.gy, t.gx] })],
);

/**
 * The level-12 cells of `map_cells` that a committed change may have altered, not yet recounted: appended by the
 * triggers in the changing statement (an insert waits for nobody), taken and recounted by `map_cells_fold()` under
 * its own lock (decision 044). A cell may be marked many times; no key.
 */
export const mapCellMarks = pgTable("map_cell_marks", {
  gy: integer("gy").notNull(),
  gx: integer("gx").notNull(),
});

/**
 * How many donations, and how many rupees, each NGO holds per campaign, kind, state and pick-up state (decision 044):
 * the totals of its history, the counts of its review queue and of its pick-up tabs read these few rows, not every
 * donation. Triggers on `donations` and `pickups` (migration 0020) keep them, in the statement that changes a row and
 * so in its transaction: no code path can change a donation without its tally. A donation without a pick-up (all
 * cash, goods for the moment between the two inserts) has the pick-up state ''.
 */
export const donationTallies = pgTable(
  "donation_tallies",
  {
    ngoId: uuid("ngo_id").notNull(),
    campaignId: uuid("campaign_id").notNull(),
    kind: donationKindEnum("kind").notNull(),
    /** Each fund's gifts are counted apart (decision 048). */
    fund: fundKindEnum("fund").notNull().default("general"),
    status: donationStatusEnum("status").notNull(),
    pickupStatus: text("pickup_status").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ngoId, t.campaignId, t.kind, t.fund, t.status, t.pickupStatus] })],
);

/**
 * The places an NGO receives goods (decision 026): a name, the street address for the rider and a place with its
 * point. A point is never edited; removing it sets `removed_at` so a finished pick-up still shows where its goods
 * went, and the NGO's open pick-ups move to its nearest remaining point.
 */
export const dropoffPoints = pgTable(
  "dropoff_points",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    address: text("address").notNull(),
    areaLabel: text("area_label").notNull(),
    /** The same place's label in Urdu, where the gazetteer has one (decision 038). */
    areaLabelUr: text("area_label_ur"),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    removedAt: timestamp("removed_at", { withTimezone: true }),
  },
  (t) => [index("dropoff_points_ngo_idx").on(t.ngoId, t.removedAt)],
);

export const pickupEventEnum = pgEnum("pickup_event", PICKUP_EVENTS);

/**
 * Every step of a pick-up with its time and who took it: the donor's and the NGO's timeline. Steps are ordered
 * by `id`, taken from a sequence at insert while the pick-up row is locked, so it follows the order in which the
 * steps committed; `created_at` is the clock at insert (as in `audit_log`).
 */
export const pickupEvents = pgTable(
  "pickup_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    donationId: uuid("donation_id")
      .notNull()
      .references(() => donations.id, { onDelete: "cascade" }),
    type: pickupEventEnum("type").notNull(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    riderId: uuid("rider_id").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index("pickup_events_donation_idx").on(t.donationId, t.id)],
);

/**
 * A volunteer position an NGO posts. `active` positions take applications until their closing day (a
 * Pakistan calendar day, inclusive) has passed; `closed` ones were closed by the NGO. Whether a position is
 * open is always worked out from both (see server/domain/volunteering/positions.ts), so a closing day needs no job.
 */
export const positionStatusEnum = pgEnum("position_status", POSITION_STATUSES);

export const volunteerPositions = pgTable(
  "volunteer_positions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    description: text("description").notNull(),
    responsibilities: text("responsibilities"),
    /** As the NGO writes them: "4 hours a day", "3 months", "Saturdays 10 am to 2 pm". */
    workingHours: text("working_hours").notNull(),
    duration: text("duration"),
    timings: text("timings").notNull(),
    /** The city or area chosen from the place search; none for work that can be done from anywhere. */
    cityLabel: text("city_label"),
    /** The same place's label in Urdu, where the gazetteer has one (decision 038). */
    cityLabelUr: text("city_label_ur"),
    cityLat: doublePrecision("city_lat"),
    cityLng: doublePrecision("city_lng"),
    volunteersNeeded: integer("volunteers_needed").notNull(),
    /** The last day applications are taken (YYYY-MM-DD, Pakistan time), if the NGO set one. */
    closesOn: text("closes_on"),
    posterKey: text("poster_key"),
    status: positionStatusEnum("status").notNull().default("active"),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index("volunteer_positions_ngo_status_idx").on(t.ngoId, t.status, t.createdAt),
    index("volunteer_positions_status_idx").on(t.status, t.createdAt),
  ],
);

export const applicationStatusEnum = pgEnum("application_status", APPLICATION_STATUSES);

/** A donor's application to a position: one per donor and position. Decided once, by the position's NGO. */
export const volunteerApplications = pgTable(
  "volunteer_applications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    positionId: uuid("position_id")
      .notNull()
      .references(() => volunteerPositions.id, { onDelete: "restrict" }),
    donorId: uuid("donor_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    motivation: text("motivation").notNull(),
    experience: text("experience"),
    /** The applicant's resume, a private PDF that only they, the position's NGO and the administrator may read. */
    resumeKey: text("resume_key"),
    /** Chosen by the form when it is shown: a resubmission of the same form is the same application, not a second one. */
    idempotencyKey: text("idempotency_key").notNull(),
    status: applicationStatusEnum("status").notNull().default("pending"),
    /** The NGO's optional message with a decline, shown to the applicant. */
    decisionMessage: text("decision_message"),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("volunteer_applications_position_donor_unique").on(t.positionId, t.donorId),
    index("volunteer_applications_position_status_idx").on(t.positionId, t.status, t.createdAt),
    index("volunteer_applications_donor_idx").on(t.donorId, t.createdAt),
    index("volunteer_applications_resume_idx").on(t.resumeKey),
  ],
);

/** Platform-wide switches the administrator sets: one row (id 1). */
export const platformSettings = pgTable(
  "platform_settings",
  {
    id: integer("id").primaryKey().default(1),
    /** Show the Raast QR on payment screens and posters (decision 023). */
    raastQr: boolean("raast_qr").notNull().default(true),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("platform_settings_one_row", sql`${t.id} = 1`)],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * How an NGO's statement of one account reads: which column holds what (server/domain/statements/columns.ts),
 * saved at the first import so the next file of the same layout (same header signature) imports in one step.
 */
export const statementFormats = pgTable(
  "statement_formats",
  {
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: paymentMethodEnum("method").notNull(),
    headerSignature: text("header_signature").notNull(),
    mapping: jsonb("mapping").$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ngoId, t.method] })],
);

/**
 * A statement file waiting for its columns to be chosen (the mapping step): kept as uploaded, private to the
 * NGO, deleted when imported and by the hourly upkeep after a day.
 */
export const statementUploads = pgTable(
  "statement_uploads",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: paymentMethodEnum("method").notNull(),
    fileName: text("file_name").notNull(),
    content: bytea("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("statement_uploads_ngo_idx").on(t.ngoId, t.createdAt)],
);

/** One import of a statement file: what it held and what was new. */
export const statementImports = pgTable(
  "statement_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: paymentMethodEnum("method").notNull(),
    fileName: text("file_name").notNull(),
    importedBy: uuid("imported_by").references(() => users.id, { onDelete: "set null" }),
    creditLines: integer("credit_lines").notNull(),
    debitLines: integer("debit_lines").notNull(),
    newLines: integer("new_lines").notNull(),
    matchedLines: integer("matched_lines").notNull().default(0),
    firstDay: text("first_day"),
    lastDay: text("last_day"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("statement_imports_ngo_idx").on(t.ngoId, t.createdAt)],
);

export const statementLineStatusEnum = pgEnum("statement_line_status", STATEMENT_LINE_STATUSES);
export const matchRuleEnum = pgEnum("match_rule", MATCH_RULES);

/**
 * A credit line of an NGO's account statement (debits are not kept). The same line imported again (the same
 * file, or an overlapping one) has the same fingerprint and occurrence, so it is never stored twice. A line is
 * tied to at most one gift and a gift to at most one line (`donation_id` is unique).
 */
export const statementLines = pgTable(
  "statement_lines",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    method: paymentMethodEnum("method").notNull(),
    importId: uuid("import_id")
      .notNull()
      .references(() => statementImports.id, { onDelete: "cascade" }),
    /** SHA-256 of the line's content; `occurrence` counts identical lines within one file (two equal transfers on a day). */
    fingerprint: text("fingerprint").notNull(),
    occurrence: integer("occurrence").notNull(),
    /** The row in the file it came from, for the NGO to find it. */
    fileRow: integer("file_row").notNull(),
    /** YYYY-MM-DD and HH:MM as the statement writes them (Pakistan time). */
    postedOn: text("posted_on").notNull(),
    postedAt: text("posted_at"),
    amountPaisa: bigint("amount_paisa", { mode: "number" }).notNull(),
    description: text("description").notNull(),
    sender: text("sender").notNull(),
    senderPhone: text("sender_phone"),
    reference: text("reference").notNull(),
    balancePaisa: bigint("balance_paisa", { mode: "number" }),
    status: statementLineStatusEnum("status").notNull().default("unmatched"),
    donationId: uuid("donation_id").references(() => donations.id, { onDelete: "set null" }),
    matchRule: matchRuleEnum("match_rule"),
    /** 0–100: how sure the match is (statements/matching.ts). */
    confidence: integer("confidence"),
    ignoredReason: text("ignored_reason"),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("statement_lines_fingerprint_unique").on(t.ngoId, t.method, t.fingerprint, t.occurrence),
    uniqueIndex("statement_lines_donation_unique").on(t.donationId),
    index("statement_lines_ngo_status_idx").on(t.ngoId, t.status, t.postedOn),
    index("statement_lines_reference_idx").on(t.ngoId, t.reference),
  ],
);

export const checkKindEnum = pgEnum("check_kind", CHECK_KINDS);
export const registrationAuthorityEnum = pgEnum("registration_authority", REGISTRATION_AUTHORITIES);

/**
 * What the administrator checked of an NGO (decision 051): one row a check. A renewal is a new row and ends the old
 * one (`renewed_at`); a revoked check keeps its row with who revoked it and why. Whether a check stands is computed on read against the day (not
 * revoked, its `expires_on` not passed): the badge never rests on a stale flag.
 */
export const ngoChecks = pgTable(
  "ngo_checks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ngoId: uuid("ngo_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    kind: checkKindEnum("kind").notNull(),
    /** A registration's authority; null for the other kinds. */
    authority: registrationAuthorityEnum("authority"),
    /** The authority's name when it is `other`, as the administrator wrote it. */
    authorityName: text("authority_name"),
    /** The registration number, the PCP certificate's number or the tax exemption's reference. */
    reference: text("reference").notNull(),
    /** The day the administrator checked it (YYYY-MM-DD, Pakistan time). */
    checkedOn: text("checked_on").notNull(),
    /** The last day it is valid (YYYY-MM-DD); null for a registration that does not lapse. */
    expiresOn: text("expires_on"),
    /** The document the administrator kept (file kind `check`, private to the administrator). */
    documentKey: text("document_key"),
    checkedBy: uuid("checked_by").references(() => users.id, { onDelete: "set null" }),
    /** When a renewal (a newer row of the same check) took its place. */
    renewedAt: timestamp("renewed_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: uuid("revoked_by").references(() => users.id, { onDelete: "set null" }),
    revokedReason: text("revoked_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("ngo_checks_ngo_idx").on(t.ngoId, t.kind, t.checkedOn),
    index("ngo_checks_document_idx").on(t.documentKey),
    check("ngo_checks_authority", sql`(${t.kind} = 'registration') = (${t.authority} is not null)`),
    check("ngo_checks_authority_name", sql`(${t.authority} = 'other') = (${t.authorityName} is not null) or ${t.authority} is null`),
    check("ngo_checks_expiry", sql`${t.kind} = 'registration' or ${t.expiresOn} is not null`),
    check("ngo_checks_dates", sql`${t.expiresOn} is null or ${t.expiresOn} >= ${t.checkedOn}`),
  ],
);

export const updateStatusEnum = pgEnum("update_status", UPDATE_STATUSES);

/**
 * What an NGO of a campaign tells its donors and the public (decision 050): text in either language and up to
 * UPDATE_PHOTOS_MAX photos. Its campaign's donors are told when it is published (campaign_update_mails).
 */
export const campaignUpdates = pgTable(
  "campaign_updates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    /** The NGO that wrote it: the owner or a partner. */
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    body: text("body").notNull(),
    status: updateStatusEnum("status").notNull().default("draft"),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    removedAt: timestamp("removed_at", { withTimezone: true }),
    ...timestamps,
  },
  // The public page's newest published updates, and an NGO's list of a campaign's updates.
  (t) => [index("campaign_updates_campaign_status_idx").on(t.campaignId, t.status, t.publishedAt)],
);

/**
 * A photo of an update (a file of kind `update`). One that shows people needs its NGO to confirm the consent of the
 * people shown (`consent_by`, `consent_at`) before the update can be published.
 */
export const campaignUpdatePhotos = pgTable(
  "campaign_update_photos",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    updateId: uuid("update_id")
      .notNull()
      .references(() => campaignUpdates.id, { onDelete: "cascade" }),
    key: text("photo_key").notNull(),
    /** Its place among the update's photos, from 0. */
    position: integer("position").notNull(),
    showsPeople: boolean("shows_people").notNull(),
    consentBy: uuid("consent_by").references(() => users.id, { onDelete: "set null" }),
    consentAt: timestamp("consent_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("campaign_update_photos_key_unique").on(t.key),
    uniqueIndex("campaign_update_photos_update_position_unique").on(t.updateId, t.position),
  ],
);

/**
 * The last update mail a donor was sent about a campaign (decision 050): at most one a day per campaign per donor.
 * `update_id` is the update that claimed the mail; `sent_at` is set in the transaction that writes it to the outbox.
 */
export const campaignUpdateMails = pgTable(
  "campaign_update_mails",
  {
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    donorId: uuid("donor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    updateId: uuid("update_id")
      .notNull()
      .references(() => campaignUpdates.id, { onDelete: "cascade" }),
    claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.donorId] }),
    // The mails an update's job still has to write.
    index("campaign_update_mails_unsent_idx")
      .on(t.updateId, t.donorId)
      .where(sql`${t.sentAt} is null`),
  ],
);

export const supportWordStatusEnum = pgEnum("support_word_status", SUPPORT_WORD_STATUSES);

/**
 * A donor's words of support for a campaign they gave to (decision 050): one message per donor per campaign, shown on
 * the public page once an NGO of the campaign approves it.
 */
export const supportWords = pgTable(
  "support_words",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    campaignId: uuid("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    donorId: uuid("donor_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    status: supportWordStatusEnum("status").notNull().default("pending"),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("support_words_campaign_donor_unique").on(t.campaignId, t.donorId),
    index("support_words_campaign_status_idx").on(t.campaignId, t.status, t.createdAt),
  ],
);
