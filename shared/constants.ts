/** Limits and fixed values from the specification, in one place. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const CNIC_DIGITS = 13;
export const NAME_MAX_LENGTH = 100;
/** "Given in the name of" on a gift (decision 048): a name or two, as a receipt line holds it. */
export const IN_NAME_OF_MAX_LENGTH = 80;
export const ADDRESS_MAX_LENGTH = 300;
export const REGISTRATION_MAX_LENGTH = 60;
export const EMAIL_MAX_LENGTH = 254;
export const REASON_MAX_LENGTH = 500;
export const ACCOUNT_FIELD_MAX_LENGTH = 60;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/**
 * Most pixels an uploaded image may have, read from its header before it is decoded. The largest photo a phone
 * saves by default is 24.5 MP (5712 x 4284, recent iPhones); 48-200 MP sensors save 12-16 MP unless a full-
 * resolution mode is chosen, and screenshots are 2-5 MP. Decoding cost grows with pixels, not bytes (a
 * compressed PNG of a few KB can hold 40 MP), so this bounds the work one upload can ask for.
 */
export const IMAGE_MAX_PIXELS = 25_000_000;
export const PAGE_SIZE = 10;
/** Longest search text looked for; anything longer is cut. */
export const SEARCH_MAX_LENGTH = 100;
export const CURRENCY = "Rs.";
export const CAMPAIGN_TITLE_MAX_WORDS = 8;
export const CAMPAIGN_DESCRIPTION_MAX_WORDS = 50;
export const CAMPAIGN_TITLE_MAX_LENGTH = 120;
export const CAMPAIGN_DESCRIPTION_MAX_LENGTH = 800;
export const CAMPAIGN_ITEMS_MAX_LENGTH = 500;
/** Rs. 1 billion: far above any campaign, well inside a safe integer. */
export const CAMPAIGN_TARGET_MAX = 1_000_000_000;
/** Previews show the first 20 words of a description and the first 8 of an item list. */
export const DESCRIPTION_PREVIEW_WORDS = 20;
export const ITEMS_PREVIEW_WORDS = 8;
/** Image types the server accepts; pickers offer only these. */
export const IMAGE_ACCEPT = "image/jpeg,image/png,image/webp";
/** Payment methods of the cash flow, in the order the payment screen offers them. */
export const PAYMENT_METHODS = ["jazzcash", "easypaisa", "bank"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** Rs. 10 million: one transfer above this is a typing slip, not a gift through a phone wallet. */
export const DONATION_AMOUNT_MAX = 10_000_000;
export const TRANSACTION_ID_MAX_LENGTH = 40;
/** The donor's picker shows 3 upper and 3 lower cards per page. */
export const DONATE_PICKER_PAGE_SIZE = 6;
/**
 * A searched picker counts at most this many matches, then says "more than 1,000 campaigns": counting every match grew
 * with the data (9,901 for "water" at 100×; decision 044).
 */
export const PICKER_COUNT_BOUND = 1_000;
/** A phone photo larger than this, or with a longer edge than the next, is shrunk in the browser before upload. */
export const PROOF_SHRINK_ABOVE_BYTES = 1024 * 1024;
export const PROOF_MAX_EDGE = 1600;
/** Parts of the day a donor may choose for a pick-up. */
export const PICKUP_SLOTS = ["morning", "afternoon", "evening"] as const;
export type PickupSlot = (typeof PICKUP_SLOTS)[number];
/** A pick-up can be asked for from today up to this many days ahead. */
export const PICKUP_MAX_DAYS_AHEAD = 30;
export const ITEMS_MAX_LENGTH = 1000;
export const PICKUP_CODE_DIGITS = 4;
/** Wrong pick-up codes a rider may enter for one request in PICKUP_CODE_WINDOW_SECONDS. */
export const PICKUP_CODE_TRIES = 5;
export const PICKUP_CODE_WINDOW_SECONDS = 15 * 60;
/** Riders listed in the NGO's Select Rider dropdown, nearest first. */
export const RIDER_CHOICES = 50;
/** Drop-off points an NGO may list (where riders take the goods); each pick-up goes to the nearest. */
export const DROPOFF_POINTS_MAX = 10;
/** Closer than this many kilometres reads as "in your area", not as a distance. */
export const NEAR_KM = 1;
/** Volunteer positions and applications. */
export const POSITION_TITLE_MAX_LENGTH = 120;
export const POSITION_TEXT_MAX_LENGTH = 2000;
/** Working hours, duration and timings are short phrases ("4 hours a day", "3 months", "Saturdays 10 am–2 pm"). */
export const POSITION_PHRASE_MAX_LENGTH = 120;
export const VOLUNTEERS_NEEDED_MAX = 10_000;
/** A closing day can be set up to a year ahead. */
export const POSITION_CLOSES_MAX_DAYS = 365;
export const APPLICATION_TEXT_MAX_LENGTH = 2000;
export const RESUME_MAX_BYTES = 2 * 1024 * 1024;
export const RESUME_ACCEPT = "application/pdf,.pdf";

/** The outbox's error for a message with a private link when no mail server is configured (shown translated). */
export const MAIL_ERROR_NO_SERVER = "no-mail-server";
/** What the outbox keeps of a message with a private link, whatever became of it: never the link (shown translated). */
export const MAIL_BODY_WITHHELD = "[not kept: contained a private link]";

export type CampaignTab = "ongoing" | "successful";

/** Statement files (decision 022): a bank's or wallet's CSV or XLSX export of one account. 50,000 lines fit well inside. */
export const STATEMENT_MAX_BYTES = 10 * 1024 * 1024;
export const STATEMENT_ACCEPT = ".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A spending record of the public ledger: its amount (whole rupees), what it was for, its document (decision 049). */
export const SPENDING_AMOUNT_MAX = 1_000_000_000;
export const SPENDING_PURPOSE_MAX_LENGTH = 300;
export const SPENDING_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
/** Pages of a spending PDF that are re-made (rasterised); a longer document is refused, not cut. */
export const SPENDING_PDF_MAX_PAGES = 10;
/** The entries of each list the campaign's public page shows; the ledger page pages through the rest. */
export const LEDGER_RECENT_ROWS = 5;
export const LEDGER_PAGE_SIZE = 25;
/** A campaign update's text (decision 050): a few paragraphs, in either language. */
export const UPDATE_TEXT_MAX_LENGTH = 2000;
/** Photos one update may carry: each is re-encoded with its narrower copies, and each showing people needs consent. */
export const UPDATE_PHOTOS_MAX = 3;
/** A donor's words of support: a short message, like a card's. */
export const SUPPORT_WORDS_MIN_LENGTH = 2;
export const SUPPORT_WORDS_MAX_LENGTH = 280;
/** What the public page shows at most: the newest updates and the newest approved words of support. */
export const PUBLIC_UPDATES_SHOWN = 10;
export const PUBLIC_WORDS_SHOWN = 20;
