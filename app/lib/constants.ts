/** Limits and fixed values from the specification, in one place. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const PHONE_DIGITS = 11;
export const CNIC_DIGITS = 13;
export const NAME_MAX_LENGTH = 100;
export const ADDRESS_MAX_LENGTH = 300;
export const REGISTRATION_MAX_LENGTH = 60;
export const EMAIL_MAX_LENGTH = 254;
export const REASON_MAX_LENGTH = 500;
export const ACCOUNT_FIELD_MAX_LENGTH = 60;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PAGE_SIZE = 10;
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
