import * as z from "zod/mini";
import { DONATION_AMOUNT_MAX, PAYMENT_METHODS, REASON_MAX_LENGTH, TRANSACTION_ID_MAX_LENGTH } from "#shared/constants.ts";
import { image, optionalImage, phone, requiredText, rupees, giftFundFields } from "./fields.ts";

/** The specification's alert for any missing field of the proof form, shown under each field. */
const FILL_ALL = "donations:errors.fillAll";
/** A missing screenshot says what is missing: a file input is easy to overlook among the text fields. */
const SCREENSHOT_MISSING = "donations:errors.screenshotMissing";

/** The transfer's transaction ID as people type it: spaces and dashes dropped, upper-cased, letters and digits. */
const transactionId = () =>
  z.pipe(
    z.pipe(
      z.string({ error: FILL_ALL }),
      z.transform((s: string) => s.replace(/[\s-]/g, "").toUpperCase()),
    ),
    z
      .string()
      .check(
        z.minLength(1, FILL_ALL),
        z.maxLength(TRANSACTION_ID_MAX_LENGTH, "validation:tooLong"),
        z.regex(/^[A-Z0-9]{4,}$/, "donations:errors.transactionInvalid"),
      ),
  );

export const paymentMethod = () => z.enum(PAYMENT_METHODS, { error: "donations:errors.methodUnknown" });

/**
 * The proof form (/donate3): phone, amount, screenshot and the transfer's transaction ID, with the campaign,
 * receiving NGO and method it came with, and the form's idempotency key (a double submit or a retried request
 * finds the donation the first one made).
 */
export const cashProofSchema = z.object({
  campaign: z.string({ error: "errors:notFound" }).check(z.minLength(1, "errors:notFound"), z.maxLength(200, "errors:notFound")),
  ngo: z.uuid({ error: "errors:notFound" }),
  method: paymentMethod(),
  idempotencyKey: z.uuid({ error: "donations:errors.formExpired" }),
  // The pledge code the payment screen showed (the server checks it is the donor's, else the gift gets a new one).
  pledge: z.optional(z.string().check(z.maxLength(20, "donations:errors.formExpired"))),
  phone: phone(FILL_ALL, "donations:errors.phoneDigits"),
  // As people type it: "Rs. 5,000", "5 000", Urdu digits.
  amount: rupees(DONATION_AMOUNT_MAX, {
    required: FILL_ALL,
    digits: "donations:errors.amountDigits",
    positive: "donations:errors.amountPositive",
    tooLarge: "donations:errors.amountTooLarge",
  }),
  screenshot: image(SCREENSHOT_MISSING),
  transactionId: transactionId(),
  ...giftFundFields(),
});

export type CashProofInput = z.input<typeof cashProofSchema>;
export type CashProofValues = z.output<typeof cashProofSchema>;

const donationId = z.uuid({ error: "errors:notFound" });

/**
 * The donor's one reply to a disapproved gift (/dvh/reply): a message to the NGO and the corrected proof, a new
 * screenshot or another transaction ID (the field starts with the earlier one). Whether anything was corrected
 * needs the earlier proof: the server checks that (donations.correction_needed).
 */
export const rejectionReplySchema = z.object({
  donation: donationId,
  idempotencyKey: z.uuid({ error: "donations:errors.formExpired" }),
  message: requiredText("donations:errors.replyRequired", REASON_MAX_LENGTH),
  transactionId: transactionId(),
  screenshot: optionalImage(),
});

export type RejectionReplyValues = z.output<typeof rejectionReplySchema>;

/**
 * Which proof the reviewer saw: the first ("0") or the one the donor re-sent after a disapproval ("1"). A decision
 * taken on a page opened before the donor's correction is refused (decision 025), so nobody approves or spends
 * the donor's one reply on a proof they never saw.
 */
const round = z.enum(["0", "1"], { error: "donations:errors.formExpired" });

/** Disapprove on /apps: the reason is shown to the donor. */
export const disapproveSchema = z.object({
  intent: z.literal("reject"),
  donationId,
  round,
  reason: requiredText("donations:errors.reasonRequired", REASON_MAX_LENGTH),
});

/** The decisions of /apps: Approve (one click) and Disapprove (with a reason). */
export const decisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), donationId, round }),
  disapproveSchema,
]);
