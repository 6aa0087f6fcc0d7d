import { IMAGE_MAX_BYTES } from "#shared/constants.ts";

/** Largest request body accepted: one form with a few images and room for the form's own fields. */
export const MAX_REQUEST_BYTES = 3 * IMAGE_MAX_BYTES;
