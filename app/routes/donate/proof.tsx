import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/proof";
import { CopyButton } from "#app/components/donate-copy.tsx";
import { BackLink, CampaignStrip, DonateProblem, DonateStep } from "#app/components/donate-parts.tsx";
import { FileField, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { cashProofSchema } from "#shared/forms/donations.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { donatePayHref, ngoProfilePath } from "#app/lib/campaign-links.ts";
import { IMAGE_ACCEPT, PAYMENT_METHODS, type PaymentMethod, PROOF_MAX_EDGE, PROOF_SHRINK_ABOVE_BYTES } from "#shared/constants.ts";
import { formatNumber } from "#shared/format.ts";
import { attempt, formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { donationTarget, paymentAccount, submitCashDonation, type PaymentAccount } from "#server/domain/donations/cash.ts";
import { donorContactNumber } from "#server/domain/donations/picker.ts";
import { pledgeFor } from "#server/domain/donations/pledges.ts";
import { platformSettingsOf } from "#server/domain/admin/platform.ts";
import { qrSvg } from "#server/domain/payments/qr-image.ts";
import { isPakistaniIban, normalizeIban, raastPayload } from "#server/domain/payments/raast-qr.ts";
import { formatPledgeCode } from "#shared/pledges.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { GiftFundFields } from "#app/components/funds/gift-fund-fields.tsx";
import type { FundKind } from "#shared/statuses.ts";

export const handle = pageTitle("donate:title");

const UPLOAD_FAILED = "donations:errors.uploadFailed";

function isMethod(value: string | null): value is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value ?? "");
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const { db } = context.services;
  const url = new URL(request.url);
  const slug = url.searchParams.get("campaign") ?? "";
  const ngoId = url.searchParams.get("ngo") ?? "";
  const method = url.searchParams.get("method");
  const backToPay = slug ? donatePayHref(slug) : "/donate1";
  if (!isMethod(method)) return { problem: "donations:errors.methodUnknown", back: backToPay };
  const outcome = await attempt(
    donationTarget(db, slug).then(async (target) => {
      const { ngo, account } = paymentAccount(target, ngoId, method);
      // The code the donor writes in the transfer's remark: the same each time this screen is opened, until a gift uses it.
      const pledge = await pledgeFor(db, user, { campaignId: target.campaign.id, ngoId: ngo.id, method });
      // A Raast QR for an IBAN, drawn here (no browser JavaScript), unless the administrator turned it off.
      const iban = account.method === "bank" ? normalizeIban(account.number) : null;
      const qr =
        iban && isPakistaniIban(iban) && (await platformSettingsOf(db)).raastQr
          ? await qrSvg(raastPayload({ iban }), { label: serverI18n(context.lang).t("payment:proof.raastLabel") })
          : null;
      return {
        campaign: { title: target.campaign.title, pictureKey: target.campaign.pictureKey },
        // The donor is offered only the funds the campaign takes (the server refuses any other, decision 048).
        acceptedFunds: target.campaign.acceptedFunds,
        ngoName: ngo.name,
        // Recipients are verified and not suspended (donationTarget), so each has a public profile.
        ngoProfile: ngoProfilePath(ngo.id),
        account,
        pledge: pledge.code,
        qr,
        // A hijacked account cannot quietly redirect gifts: donors are told for a day after the accounts changed.
        recentlyChanged: ngo.accountsChangedRecently,
      };
    }),
  );
  if (!outcome.ok) {
    return { problem: outcome.refusal.kind === "not_found" ? "donate:details.notFound" : outcome.refusal.message, back: backToPay };
  }
  return {
    problem: null,
    back: donatePayHref(slug, ngoId),
    ...outcome.value,
    values: {
      campaign: slug,
      ngo: ngoId,
      method,
      pledge: outcome.value.pledge,
      phone: await donorContactNumber(db, user.id),
      // A new key each time the form is shown: resending this form (a double click, a retried request) finds
      // the donation it made instead of making another.
      idempotencyKey: crypto.randomUUID(),
    },
  };
}

type ActionResult = { result: SubmissionResult<string[]> };

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, "donor");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: cashProofSchema });
  if (submission.status !== "success") return data<ActionResult>({ result: submission.reply() }, { status: 400 });
  let donationId: string;
  try {
    const out = await formAction(submission, () => submitCashDonation(context.services, user, submission.value));
    if (!out.ok) return out.answer();
    donationId = out.value.id;
  } catch (err) {
    // submitCashDonation removes a stored screenshot when the row is not written, so a retry starts clean.
    context.services.log.error({ err }, "saving a cash donation failed");
    return data<ActionResult>({ result: submission.reply({ formErrors: [UPLOAD_FAILED] }) }, { status: 503 });
  }
  return redirect(`/donate4?donation=${donationId}`);
}

/** /donate3: the receiving NGO's account for the chosen method, then the proof form (phone, amount, screenshot, transaction ID). */
export default function DonateProof({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  return (
    <>
      <title>{`${t("payment:proof.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <DonateStep step={3} />
        {d.problem !== null ? (
          <DonateProblem message={t(d.problem)} back={d.back} backLabel={t("donate:goBack")} />
        ) : (
          <>
            <CampaignStrip title={d.campaign.title} pictureKey={d.campaign.pictureKey} />
            {d.recentlyChanged && (
              <p
                role="alert"
                className="rounded-md border-2 border-amber-500 bg-amber-50 p-3 font-medium text-amber-950"
                data-testid="account-changed"
              >
                {t("payment:proof.recentlyChanged", { name: d.ngoName })}
              </p>
            )}
            <AccountPanel ngoName={d.ngoName} ngoProfile={d.ngoProfile} account={d.account} pledge={d.pledge} qr={d.qr} />
            <ProofForm values={d.values} acceptedFunds={d.acceptedFunds} lastResult={(actionData as ActionResult | undefined)?.result} />
            <div>
              <BackLink to={d.back} label={t("donate:goBack")} />
            </div>
          </>
        )}
      </div>
    </>
  );
}

function AccountPanel({
  ngoName,
  ngoProfile,
  account,
  pledge,
  qr,
}: {
  ngoName: string;
  ngoProfile: string;
  account: PaymentAccount;
  pledge: string;
  qr: string | null;
}) {
  const { t } = useTranslation();
  const method = t(`donations:methods.${account.method}`);
  const numberLabel = account.method === "bank" ? t("payment:proof.accountNumber") : t("payment:proof.walletNumber", { method });
  return (
    <section aria-labelledby="account-heading" className="flex flex-col gap-3 rounded-lg border-2 border-brand-700 bg-white p-4 shadow-sm">
      <h2 id="account-heading" className="text-xl font-bold text-brand-900">
        {t("payment:proof.accountHeading", { method })}
      </h2>
      <p className="text-slate-700">{t("payment:proof.accountLead", { name: ngoName })}</p>
      {/* Who is being paid, before paying: the NGO's registration, contact and vetting record. */}
      <p>
        <Link to={ngoProfile} className="font-medium text-brand-800 underline underline-offset-2" data-testid="ngo-profile-link">
          {t("ngoProfile:profileLink", { name: ngoName })}
        </Link>
      </p>
      <dl className="flex flex-col gap-2">
        {account.bankName && (
          <div>
            <dt className="text-sm text-slate-700">{t("payment:proof.bankName")}</dt>
            <UserText as="dd" className="text-start font-bold">
              {account.bankName}
            </UserText>
          </div>
        )}
        {account.title && (
          <div>
            <dt className="text-sm text-slate-700">{t("payment:proof.accountTitle")}</dt>
            <UserText as="dd" className="text-start font-bold">
              {account.title}
            </UserText>
          </div>
        )}
        <div>
          <dt className="text-sm text-slate-700">{numberLabel}</dt>
          <dd className="flex flex-wrap items-center gap-3">
            <span
              dir="ltr"
              className="select-all break-all font-mono text-xl font-bold tracking-wide text-slate-900"
              data-testid="account-number"
            >
              {account.number}
            </span>
            <CopyButton text={account.number} what={numberLabel} />
          </dd>
        </div>
        <div className="rounded-md border-2 border-dashed border-brand-700 bg-brand-50 p-3">
          <dt className="font-bold text-brand-900">{t("payment:proof.pledgeLabel")}</dt>
          <dd className="flex flex-col gap-2">
            <span className="flex flex-wrap items-center gap-3">
              <span dir="ltr" className="select-all font-mono text-3xl font-bold tracking-widest text-slate-900" data-testid="pledge-code">
                {formatPledgeCode(pledge)}
              </span>
              <CopyButton text={formatPledgeCode(pledge)} what={t("payment:proof.pledgeLabel")} />
            </span>
            <span className="text-sm text-slate-800">{t("payment:proof.pledgeHint")}</span>
          </dd>
        </div>
      </dl>
      {qr && (
        <figure className="flex flex-col items-center gap-2 self-center" data-testid="raast-qr">
          {/* Made on the server from digits and letters by the qrcode package: paths only, no script. */}
          <div className="size-52 bg-white [&>svg]:size-full" dangerouslySetInnerHTML={{ __html: qr }} />
          <figcaption className="max-w-xs text-center text-sm text-slate-800">{t("payment:proof.raastHint")}</figcaption>
        </figure>
      )}
    </section>
  );
}

/** Keeps the focus where it is while the button is pressed (the click still happens). */
const keepFocus = (event: React.MouseEvent) => event.preventDefault();

type ShrinkState = { state: "idle" } | { state: "working" } | { state: "done"; size: string };

function ProofForm({
  values,
  acceptedFunds,
  lastResult,
}: {
  values: { campaign: string; ngo: string; method: string; pledge: string; phone: string; idempotencyKey: string };
  acceptedFunds: FundKind[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/donations.ts").then((m) => m.cashProofSchema), {
    id: "proof",
    lastResult,
    defaultValue: values,
  });
  const [shrink, setShrink] = useState<ShrinkState>({ state: "idle" });
  // Files this page made itself, so replacing the chosen file does not start another round.
  const made = useRef(new WeakSet<File>());
  // Sending lasts from the post until the thank-you page has loaded (submitting, then loading after the redirect):
  // on a slow connection the button must not offer "Submit" again while the next page is still on its way.
  const sending = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const busy = sending || shrink.state === "working";
  // Problems with the hidden fields (an ended campaign, an expired form) belong to the whole form.
  const formErrors = [
    ...(form.errors ?? []),
    ...[fields.campaign, fields.ngo, fields.method, fields.pledge, fields.idempotencyKey].flatMap((f) => f.errors ?? []),
  ];

  const onChange = async (event: React.FormEvent<HTMLFormElement>) => {
    const input = event.target as HTMLInputElement;
    if (input.name !== fields.screenshot.name || input.type !== "file") return;
    const file = input.files?.[0];
    if (!file || made.current.has(file)) return;
    setShrink({ state: "working" });
    try {
      const { shrinkImage, replaceInputFile } = await import("#app/lib/shrink-image.ts");
      const smaller = await shrinkImage(file, { maxBytes: PROOF_SHRINK_ABOVE_BYTES, maxEdge: PROOF_MAX_EDGE });
      // The donor may have picked another file meanwhile: that one gets its own round.
      if (!smaller || input.files?.[0] !== file) {
        setShrink({ state: "idle" });
        return;
      }
      made.current.add(smaller);
      replaceInputFile(input, smaller);
      // Let the form's checks see the new file (a size message shown for the original goes away).
      input.dispatchEvent(new Event("input", { bubbles: true }));
      setShrink({ state: "done", size: `${formatNumber(smaller.size / (1024 * 1024), i18n.language, { maximumFractionDigits: 1 })} MB` });
    } catch {
      // Shrinking is a courtesy: the original goes up as chosen and the server decides.
      setShrink({ state: "idle" });
    }
  };

  return (
    <section aria-labelledby="proof-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
      <h2 id="proof-heading" className="mb-1 text-xl font-bold text-brand-900">
        {t("payment:proof.formHeading")}
      </h2>
      <p className="mb-4 text-slate-700">{t("payment:proof.formLead")}</p>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" {...getFormProps(form)} onChange={onChange}>
        <ErrorBox id={form.errorId} errors={formErrors.length > 0 ? formErrors : null} />
        {([fields.campaign, fields.ngo, fields.method, fields.pledge, fields.idempotencyKey] as const).map((f) => {
          const { key, ...props } = getInputProps(f, { type: "hidden" });
          return <input key={key ?? f.name} {...props} />;
        })}
        <TextField
          field={fields.phone}
          label={t("payment:proof.phone")}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          hint={t("payment:proof.phoneHint")}
        />
        <TextField field={fields.amount} label={t("payment:proof.amount")} inputMode="numeric" hint={t("payment:proof.amountHint")} />
        <div className="flex flex-col gap-1">
          <FileField
            field={fields.screenshot}
            label={t("payment:proof.screenshot")}
            accept={IMAGE_ACCEPT}
            hint={t("payment:proof.screenshotHint")}
          />
          <p role="status" className="text-sm text-slate-700">
            {shrink.state === "working"
              ? t("payment:proof.shrinking")
              : shrink.state === "done"
                ? t("payment:proof.shrunk", { size: shrink.size })
                : ""}
          </p>
        </div>
        <TextField
          field={fields.transactionId}
          label={t("payment:proof.transactionId")}
          autoComplete="off"
          hint={t("payment:proof.transactionIdHint")}
        />
        <GiftFundFields fund={fields.fund} showName={fields.showName} inNameOf={fields.inNameOf} accepted={acceptedFunds} />
        {/* Pressing the button must not first take the focus from the field being typed in: that blur shows the
            field's message, the message pushes the button down before the press ends, and the press is lost, so
            the other missing fields (the screenshot among them) were only flagged on a second press. */}
        <button type="submit" disabled={busy} onMouseDown={keepFocus} className={brandButton("block")}>
          {sending ? t("payment:proof.submitting") : t("payment:proof.submit")}
        </button>
      </Form>
    </section>
  );
}
