/**
 * Typed domain errors: the one error contract (decision 017).
 * - `kind` says what went wrong in general, and is what the HTTP layer maps to a status (ERROR_STATUS).
 * - `code` is stable: tests, logs and callers match on it; it never changes when a text or its key does.
 * - `message` is the translation key (namespace:key) the screens show, taken from ERROR_MESSAGES by code; only a
 *   form's own field message (`invalidInput`, from its schema) brings its key with it.
 * - `field` ties the message to one form field; `params` fill the text's placeholders or tell the screen more.
 */
export const ERROR_KINDS = ["invalid", "not_found", "forbidden", "conflict", "rate_limited"] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Every domain error's code and the text it shows (a key in shared/locales). */
export const ERROR_MESSAGES = {
  "checks.authority_required": "checks:errors.authorityRequired",
  "checks.authority_name_required": "checks:errors.authorityNameRequired",
  "checks.date_invalid": "checks:errors.dateInvalid",
  "checks.reference_required": "checks:errors.referenceRequired",
  "checks.expiry_required": "checks:errors.expiryRequired",
  "checks.expiry_before_check": "checks:errors.expiryBeforeCheck",
  "checks.checked_in_future": "checks:errors.checkedInFuture",
  "checks.not_an_ngo": "checks:errors.notAnNgo",
  "checks.not_current": "checks:errors.notCurrent",
  "checks.document_invalid": "checks:errors.documentInvalid",
  "checks.document_too_large": "checks:errors.documentTooLarge",
  "admin.already_decided": "admin:alreadyDecided",
  "admin.already_suspended": "admin:alreadySuspended",
  "admin.cannot_suspend_admin": "admin:cannotSuspendAdmin",
  "admin.not_suspended": "admin:notSuspended",
  "auth.reset.invalid_token": "auth:reset.invalidToken",
  "auth.resubmit.not_rejected": "auth:resubmit.notRejected",
  "auth.sign_in.no_account.admin": "auth:signIn.noAccount.admin",
  "auth.sign_in.no_account.donor": "auth:signIn.noAccount.donor",
  "auth.sign_in.no_account.ngo": "auth:signIn.noAccount.ngo",
  "auth.sign_in.no_account.rider": "auth:signIn.noAccount.rider",
  "auth.sign_in.not_verified": "auth:signIn.notVerified",
  "auth.sign_in.suspended": "auth:signIn.suspended",
  "auth.sign_in.wrong_password": "auth:signIn.wrongPassword",
  "campaigns.archived": "campaigns:errors.archived",
  "campaigns.not_active": "campaigns:errors.notActive",
  "campaigns.owner_only": "campaigns:errors.ownerOnly",
  "campaigns.paused": "campaigns:errors.paused",
  "campaigns.title_taken": "campaigns:errors.titleTaken",
  "collab.already_answered": "collab:errors.alreadyAnswered",
  "collab.already_partner": "collab:errors.alreadyPartner",
  "collab.choose_ngo": "collab:errors.chooseNgo",
  "collab.ngo_unavailable": "collab:errors.ngoUnavailable",
  "collab.not_active": "collab:errors.notActive",
  "collab.not_yourself": "collab:errors.notYourself",
  "collab.own_campaign": "collab:errors.ownCampaign",
  "collab.owner_cannot_leave": "collab:errors.ownerCannotLeave",
  "collab.too_many": "collab:errors.tooMany",
  "donate.details.not_found": "donate:details.notFound",
  "donations.already_decided": "donations:errors.alreadyDecided",
  "donations.already_replied": "donations:errors.alreadyReplied",
  "donations.campaign_not_active": "donations:errors.campaignNotActive",
  "donations.correction_needed": "donations:errors.correctionNeeded",
  "donations.method_unavailable": "donations:errors.methodUnavailable",
  "donations.proof_changed": "review:notices.proofChanged",
  "donations.not_rejected": "donations:errors.notRejected",
  "donations.upload_failed": "donations:errors.uploadFailed",
  forbidden: "errors:forbidden",
  "funds.not_accepted": "funds:errors.notAccepted",
  "funds.no_longer_accepted": "funds:errors.noLongerAccepted",
  "ledger.already_corrected": "ledger:errors.alreadyCorrected",
  "ledger.already_published": "ledger:errors.alreadyPublished",
  "ledger.already_taken_down": "ledger:errors.alreadyTakenDown",
  "ledger.not_published": "ledger:errors.notPublished",
  "ledger.takedown_reason_invalid": "ledger:errors.takedownReasonInvalid",
  "ledger.campaign_archived": "ledger:errors.campaignArchived",
  "ledger.cannot_correct": "ledger:errors.cannotCorrect",
  "ledger.date_ahead": "ledger:errors.dateAhead",
  "ledger.date_invalid": "ledger:errors.dateInvalid",
  "ledger.document_invalid": "ledger:errors.documentInvalid",
  "ledger.document_too_large": "ledger:errors.documentTooLarge",
  "ledger.document_too_many_pages": "ledger:errors.documentTooManyPages",
  "ledger.document_too_slow": "ledger:errors.documentTooSlow",
  "ledger.spender_only": "ledger:errors.spenderOnly",
  "map.inverted": "map:errors.inverted",
  "map.not_number": "map:errors.notNumber",
  not_found: "errors:notFound",
  "pickups.already_assigned": "pickups:errors.alreadyAssigned",
  "pickups.cannot_cancel": "pickups:errors.cannotCancel",
  "pickups.cannot_reassign": "pickups:errors.cannotReassign",
  "pickups.code_wrong": "pickups:errors.codeWrong",
  "pickups.date_range": "pickups:errors.dateRange",
  "pickups.dropoffs_full": "pickups:dropoffs.errors.full",
  "pickups.not_accepted": "pickups:errors.notAccepted",
  "pickups.not_assigned": "pickups:errors.notAssigned",
  "pickups.not_collected": "pickups:errors.notCollected",
  "pickups.not_delivered": "pickups:errors.notDelivered",
  "pickups.rider_unavailable": "pickups:errors.riderUnavailable",
  "pickups.same_rider": "pickups:errors.sameRider",
  rate_limited: "errors:rateLimited",
  "statements.amount_not_rupees": "reconcile:errors.amountNotRupees",
  "statements.amount_too_large": "statements:errors.amountTooLarge",
  "statements.bad_amount": "statements:errors.badAmount",
  "statements.bad_date": "statements:errors.badDate",
  "statements.bad_direction": "statements:errors.badDirection",
  "statements.both_sides": "statements:errors.bothSides",
  "statements.cell_too_long": "statements:errors.cellTooLong",
  "statements.csv_broken_quote": "statements:errors.csvBrokenQuote",
  "statements.direction_conflict": "statements:errors.directionConflict",
  "statements.empty_file": "statements:errors.emptyFile",
  "statements.file_too_large": "statements:errors.fileTooLarge",
  "statements.gift_not_pending": "reconcile:errors.giftNotPending",
  "statements.gift_taken": "reconcile:errors.giftTaken",
  "statements.line_taken": "reconcile:errors.lineTaken",
  "statements.mapping_invalid": "statements:errors.mappingInvalid",
  "statements.mapping_no_amount": "statements:errors.mappingNoAmount",
  "statements.mapping_no_date": "statements:errors.mappingNoDate",
  "statements.no_amount": "statements:errors.noAmount",
  "statements.no_header": "statements:errors.noHeader",
  "statements.no_open_pledge": "reconcile:errors.noOpenPledge",
  "statements.no_such_account": "reconcile:errors.noSuchAccount",
  "statements.not_statement": "statements:errors.notStatement",
  "statements.pdf_unsupported": "statements:errors.pdfUnsupported",
  "statements.too_many_columns": "statements:errors.tooManyColumns",
  "statements.too_many_rows": "statements:errors.tooManyRows",
  "statements.xls_unsupported": "statements:errors.xlsUnsupported",
  "statements.xlsx_too_large": "statements:errors.xlsxTooLarge",
  "statements.xlsx_unreadable": "statements:errors.xlsxUnreadable",
  "updates.consent_missing": "updates:errors.consentMissing",
  "updates.not_a_donor": "updates:errors.notADonor",
  "updates.state_changed": "updates:errors.stateChanged",
  "updates.too_many_photos": "updates:errors.tooManyPhotos",
  "updates.words_decided": "updates:errors.wordsDecided",
  "validation.current_password_wrong": "validation:currentPasswordWrong",
  "validation.email_taken": "validation:emailTaken",
  "validation.image_invalid": "validation:imageInvalid",
  "validation.image_too_large": "validation:imageTooLarge",
  "validation.image_too_many_pixels": "validation:imageTooManyPixels",
  "validation.reason_required": "validation:reasonRequired",
  "validation.too_long": "validation:tooLong",
  "volunteer.already_applied": "volunteer:errors.alreadyApplied",
  "volunteer.already_closed": "volunteer:errors.alreadyClosed",
  "volunteer.already_decided": "volunteer:errors.alreadyDecided",
  "volunteer.already_open": "volunteer:errors.alreadyOpen",
  "volunteer.apply_failed": "volunteer:errors.applyFailed",
  "volunteer.closes_on_invalid": "volunteer:errors.closesOnInvalid",
  "volunteer.closes_on_range": "volunteer:errors.closesOnRange",
  "volunteer.confirm_overfill": "volunteer:errors.confirmOverfill",
  "volunteer.position_closed": "volunteer:errors.positionClosed",
  "volunteer.resume_not_pdf": "volunteer:errors.resumeNotPdf",
  "volunteer.resume_too_large": "volunteer:errors.resumeTooLarge",
  invalid_input: "validation:required",
} as const;
export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** The HTTP status of each kind: the one mapping, used by every route helper (app/lib/http.server.ts). */
export const ERROR_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  conflict: 409,
  not_found: 404,
  forbidden: 403,
  rate_limited: 429,
};

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    readonly field?: string,
    readonly params?: Record<string, string>,
    /** Only for `invalid_input`: the form schema's own message key. */
    messageKey?: string,
  ) {
    super(messageKey ?? ERROR_MESSAGES[code]);
    this.status = ERROR_STATUS[kind];
  }
}

export const invalid = (code: ErrorCode, field?: string, params?: Record<string, string>) =>
  new DomainError("invalid", code, field, params);
/** A form field's value the form's schema refuses, with the schema's message (a translation key). */
export const invalidInput = (messageKey: string, field?: string) =>
  new DomainError("invalid", "invalid_input", field, undefined, messageKey);
export const notFound = (code: ErrorCode = "not_found") => new DomainError("not_found", code);
export const forbidden = (code: ErrorCode = "forbidden") => new DomainError("forbidden", code);
export const conflict = (code: ErrorCode, field?: string) => new DomainError("conflict", code, field);
export const rateLimited = () => new DomainError("rate_limited", "rate_limited");
