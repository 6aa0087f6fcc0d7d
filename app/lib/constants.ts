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
