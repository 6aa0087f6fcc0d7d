/**
 * The vocabularies of states and kinds that both the screens and the database use. The database enums are made
 * from these lists (server/db/schema.ts), and each area's transition table (server/domain/<area>/states.ts) says
 * which action moves a row from one state to another and who may take it.
 */
export const VERIFICATION_STATUSES = ["pending", "verified", "rejected"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/**
 * kept: no mail server, the outbox is where it ends; queued: waiting for its first try; retrying: a try failed, another
 * is due (attempts, error); sent: the mail server took it; failed: given up (no server for a private link, or every try
 * failed: the dead letter).
 */
export const MAIL_STATUSES = ["kept", "queued", "retrying", "sent", "failed"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export const FILE_KINDS = ["logo", "avatar", "campaign", "poster", "proof", "resume", "check", "spending", "update"] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export const CAMPAIGN_STATUSES = ["active", "completed", "archived"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** What a campaign helps with, chosen by its NGO: donors browse and filter by it (the landing page). */
export const CAMPAIGN_CAUSES = ["food", "health", "education", "shelter", "water", "relief", "livelihood", "other"] as const;
export type CampaignCause = (typeof CAMPAIGN_CAUSES)[number];

export const PARTNERSHIP_DIRECTIONS = ["invited", "requested"] as const;
export type PartnershipDirection = (typeof PARTNERSHIP_DIRECTIONS)[number];
export const PARTNERSHIP_STATUSES = ["pending", "accepted", "declined", "left"] as const;
export type PartnershipStatus = (typeof PARTNERSHIP_STATUSES)[number];

export const DONATION_KINDS = ["cash", "in_kind"] as const;
export type DonationKind = (typeof DONATION_KINDS)[number];
export const DONATION_STATUSES = ["pending", "approved", "rejected"] as const;
export type DonationStatus = (typeof DONATION_STATUSES)[number];

/**
 * The kinds of giving (funds) a gift is made to and a campaign may accept, kept apart in every total: Zakat (with its
 * rules: only to a campaign whose NGO attests it is eligible), Sadaqah, Fitrana (the Eid al-Fitr due) and general.
 */
export const FUND_KINDS = ["zakat", "sadaqah", "fitrana", "general"] as const;
export type FundKind = (typeof FUND_KINDS)[number];
/** The funds an NGO chooses for a campaign: every campaign takes general gifts besides (decision 048). */
export const CHOSEN_FUNDS = ["zakat", "sadaqah", "fitrana"] as const satisfies readonly FundKind[];

/** A campaign's accepted funds from the NGO's choice: general always, in FUND_KINDS order. */
export function acceptedFundsOf(chosen: readonly FundKind[]): FundKind[] {
  return FUND_KINDS.filter((f) => f === "general" || chosen.includes(f));
}

/**
 * What the administrator's vetting of an NGO checked (decision 051): its registration with an authority, its
 * certification by the Pakistan Centre for Philanthropy, its tax exemption (FBR's approval as a non-profit
 * organisation under section 2(36) of the Income Tax Ordinance, for the donor's tax credit under section 61).
 */
export const CHECK_KINDS = ["registration", "pcp", "tax_exemption"] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/**
 * Where an NGO in Pakistan is registered: the provincial charity commissions, SECP (a not-for-profit company
 * licensed under section 42 of the Companies Act 2017), the registrars of societies (Societies Registration Act
 * 1860) and of trusts (Trusts Act), the social welfare departments (Voluntary Social Welfare Agencies
 * (Registration and Control) Ordinance 1961), or another the administrator names.
 */
export const REGISTRATION_AUTHORITIES = [
  "punjab_charity_commission",
  "sindh_charity_commission",
  "secp_section_42",
  "societies_act_1860",
  "trusts_act",
  "social_welfare_ordinance_1961",
  "other",
] as const;
export type RegistrationAuthority = (typeof REGISTRATION_AUTHORITIES)[number];

/**
 * A spending record of a campaign's public ledger (server/domain/ledger): a `draft` only its campaign's NGOs see, then
 * `published` for anyone (decision 049: a published record is never edited; a correction is a new record), and
 * `taken_down` when the platform's administrator took a published record down (its document showed private data, or it
 * was abusive): the ledger then says so, without its amount or document, and it no longer counts as spent.
 */
export const SPENDING_STATUSES = ["draft", "published", "taken_down"] as const;
/** The most a takedown's reason may hold (told to the NGO, kept with the record and in the audit log). */
export const TAKEDOWN_REASON_MAX_LENGTH = 500;
export type SpendingStatus = (typeof SPENDING_STATUSES)[number];

export const PICKUP_STATUSES = ["new", "assigned", "accepted", "collected", "delivered", "received", "cancelled"] as const;
export type PickupStatus = (typeof PICKUP_STATUSES)[number];
/** What can be done to a pick-up; who may do what from which state is server/domain/pickups/states.ts. */
export const PICKUP_ACTIONS = ["assign", "reassign", "cancel", "accept", "decline", "collect", "deliver", "receive"] as const;
export type PickupAction = (typeof PICKUP_ACTIONS)[number];
export const PICKUP_EVENTS = ["requested", "assigned", "accepted", "declined", "collected", "delivered", "received", "cancelled"] as const;
export type PickupEventType = (typeof PICKUP_EVENTS)[number];

export const POSITION_STATUSES = ["active", "closed"] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];
export const APPLICATION_STATUSES = ["pending", "approved", "declined"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/**
 * A credit line of an NGO's imported account statement (server/domain/statements): `unmatched` (no gift yet),
 * `matched` (the matcher, or the NGO by hand, tied it to a pending gift that waits for confirmation), `confirmed`
 * (the gift was approved with this line as its evidence) or `ignored` (not a gift through the platform, with a reason).
 */
export const STATEMENT_LINE_STATUSES = ["unmatched", "matched", "confirmed", "ignored"] as const;
export type StatementLineStatus = (typeof STATEMENT_LINE_STATUSES)[number];
/** Why a line was tied to a gift, strongest first. */
export const MATCH_RULES = ["transaction_id", "pledge_code", "amount_phone", "amount_date", "manual"] as const;
export type MatchRule = (typeof MATCH_RULES)[number];

/**
 * A campaign update's states (decision 050): a `draft` only its campaign's NGOs see, `published` on the public page
 * (its campaign's donors were told), `removed` by an NGO after publishing (kept, shown to no one but its NGOs).
 */
export const UPDATE_STATUSES = ["draft", "published", "removed"] as const;
export type UpdateStatus = (typeof UPDATE_STATUSES)[number];

/** Words of support from a donor of a campaign: `pending` until an NGO of the campaign approves or hides them. */
export const SUPPORT_WORD_STATUSES = ["pending", "approved", "hidden"] as const;
export type SupportWordStatus = (typeof SUPPORT_WORD_STATUSES)[number];
