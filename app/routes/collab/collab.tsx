import { UserOption, UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { Search } from "lucide-react";
import { data, Form, Link, redirect, useActionData, useLocation, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/collab";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime } from "#shared/format.ts";
import { ErrorBox } from "#app/components/error-box.tsx";
import { Pager } from "#app/components/pager.tsx";
import { progressBar } from "#app/components/progress-bar.tsx";
import { collabActionSchema } from "#shared/forms/collab.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { getFormProps, FORM_INTENT, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { formatRupees, formatShare } from "#shared/money.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { parsePage } from "#server/db/query.ts";
import {
  collabOverview,
  invitePartners,
  leaveCampaign,
  respondToInvitation,
  respondToRequest,
  type Invitation,
  type NgoChoice,
} from "#server/domain/campaigns/collaboration.ts";
import { partnershipStates, type PartnershipAction, type PartnershipRole, type PartnershipState } from "#server/domain/campaigns/states.ts";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("collab:title");

/**
 * The steps each list offers on a row, when the partnership table allows them for the row's state and the NGO's
 * side of it: the invitations it received, the requests to join its campaigns, the joint campaigns it is in.
 */
const LIST_ACTIONS = {
  invitations: ["acceptInvitation", "declineInvitation"],
  requests: ["acceptRequest", "declineRequest"],
  joint: ["leave"],
} as const satisfies Record<string, readonly PartnershipAction[]>;

function offered<L extends keyof typeof LIST_ACTIONS>(list: L, state: PartnershipState, side: PartnershipRole) {
  const shown: readonly PartnershipAction[] = LIST_ACTIONS[list];
  return partnershipStates.actionsFor(state, side).filter((a): a is (typeof LIST_ACTIONS)[L][number] => shown.includes(a));
}

const NOTICES = ["acceptInvitation", "declineInvitation", "acceptRequest", "declineRequest", "leave"] as const;
type Notice = (typeof NOTICES)[number];

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const url = new URL(request.url);
  const param = (name: string) => url.searchParams.get(name);
  const overview = await collabOverview(context.services.db, user, {
    campaignId: param("campaignId"),
    q: param("q"),
    page: parsePage(param("page")),
    invitationsPage: parsePage(param("invitationsPage")),
    requestsPage: parsePage(param("requestsPage")),
    jointPage: parsePage(param("jointPage")),
    ownPage: parsePage(param("ownPage")),
  });
  const when = (rows: Invitation[]) => rows.map((r) => ({ ...r, createdAt: formatDateTime(r.createdAt, context.lang) }));
  const notice = param("notice");
  return {
    ...overview,
    invitations: {
      ...overview.invitations,
      rows: when(overview.invitations.rows).map((r) => ({ ...r, actions: offered("invitations", "invited", "ngo") })),
    },
    requests: {
      ...overview.requests,
      rows: when(overview.requests.rows).map((r) => ({ ...r, actions: offered("requests", "requested", "owner") })),
    },
    joint: {
      ...overview.joint,
      rows: overview.joint.rows.map((c) => ({ ...c, actions: offered("joint", "accepted", c.role === "owner" ? "owner" : "ngo") })),
    },
    notice: (NOTICES as readonly string[]).includes(notice ?? "") ? (notice as Notice) : null,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: collabActionSchema });
  const intent = String(submission.payload.intent ?? "");
  if (submission.status !== "success") return data({ result: submission.reply(), intent }, { status: 400 });
  const input = submission.value;
  const { services } = context;
  const outcome = await formAction(submission, async () => {
    switch (input.intent) {
      case "invite":
        return invitePartners(services, user, input.campaignId, input.ngoIds);
      case "acceptInvitation":
      case "declineInvitation":
        return respondToInvitation(services, user, input.campaignId, input.intent === "acceptInvitation");
      case "acceptRequest":
      case "declineRequest":
        return respondToRequest(services, user, input.campaignId, input.ngoId, input.intent === "acceptRequest");
      case "leave":
        return leaveCampaign(services, user, input.campaignId);
    }
  });
  if (!outcome.ok) {
    return outcome.answer({ intent });
  }
  if (input.intent === "invite") {
    const done = outcome.value as Awaited<ReturnType<typeof invitePartners>>;
    if (done.invited.length === 0 && done.joined.length === 0) {
      // Every NGO chosen was already invited or a partner: nothing was written and nobody told again, so no
      // "successfully made" page either; the form says so, with the NGOs' states as they are now.
      return data({ result: submission.reply({ resetForm: true }), intent, unchanged: done.unchanged.length });
    }
    const query = new URLSearchParams({
      invited: String(done.invited.length),
      joined: String(done.joined.length),
      unchanged: String(done.unchanged.length),
    });
    return redirect(`/collab1?${query.toString()}`);
  }
  const back = new URL(request.url);
  back.searchParams.set("notice", input.intent);
  const anchor =
    input.intent === "leave" || input.intent === "acceptInvitation"
      ? "#joint"
      : input.intent.endsWith("Request")
        ? "#requests"
        : "#invitations";
  return redirect(back.pathname + back.search + anchor);
}

type ActionData = { result: SubmissionResult<string[]>; intent: string; unchanged?: number } | undefined;

const sectionHeading = "text-lg font-bold text-brand-900";
const primaryButton = brandButton("regular");
const secondaryButton = "rounded-md border-2 border-slate-500 bg-white px-4 py-1.5 font-bold text-slate-800 hover:bg-slate-100";

/** /collab: invite partner NGOs to a campaign, answer invitations and join requests, see and leave joint campaigns. */
export default function Collaborate({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>() as ActionData;
  const { notice } = loaderData;
  // Errors of the one-click answers show at the top; the invite form shows its own next to its fields.
  const answerErrors =
    actionData && actionData.intent !== "invite"
      ? Object.values(actionData.result.error ?? {})
          .flat()
          .filter((e): e is string => typeof e === "string")
      : null;
  return (
    <>
      <title>{`${t("collab:title")} · ${t("common:brand")}`}</title>
      {notice && !actionData && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(`collab:notices.${notice}`)}
        </p>
      )}
      <ErrorBox errors={answerErrors} />
      <p className="mb-6 max-w-3xl text-slate-700">{t("collab:lead")}</p>
      <div className="grid grid-cols-1 gap-10">
        <OwnSection own={loaderData.own} selectedId={loaderData.selected?.id ?? null} />
        <InviteSection
          data={loaderData}
          lastResult={actionData?.intent === "invite" ? actionData.result : undefined}
          unchanged={actionData?.intent === "invite" ? (actionData.unchanged ?? 0) : 0}
        />
        <InvitationsSection invitations={loaderData.invitations} />
        <RequestsSection requests={loaderData.requests} />
        <JointSection joint={loaderData.joint} />
      </div>
    </>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

/**
 * The NGO's own active campaigns, first on the page and without any search: each says how many partners it has
 * and leads to the invite form with that campaign chosen (a plain link, so it works without JavaScript too).
 */
function OwnSection({ own, selectedId }: { own: LoaderData["own"]; selectedId: string | null }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Choosing keeps the page of this list; the NGOs' list starts again at its first page.
  const choose = (id: string) => {
    const next = new URLSearchParams(params);
    next.set("campaignId", id);
    next.delete("page");
    next.delete("notice");
    return `?${next.toString()}#invite-partners`;
  };
  return (
    <section id="own" aria-labelledby="own-heading" className="scroll-mt-4">
      <h2 id="own-heading" className={sectionHeading}>
        {t("collab:own.heading")} <span className="text-base font-normal text-slate-600">({own.total})</span>
      </h2>
      {own.rows.length === 0 ? (
        <p className="mt-2 text-slate-700">
          {t("collab:invite.noCampaigns")}{" "}
          <Link to="/create_camp" className="font-bold text-brand-800 underline">
            {t("collab:invite.createOne")}
          </Link>
        </p>
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-3 lg:grid-cols-2">
          {own.rows.map((c) => {
            const chosen = c.id === selectedId;
            return (
              <li key={c.id}>
                <article
                  aria-labelledby={`own-${c.id}`}
                  className={`flex h-full flex-wrap items-center justify-between gap-3 rounded-lg border-2 bg-white p-4 shadow-sm ${chosen ? "border-brand-700" : "border-transparent"}`}
                >
                  <div className="min-w-0 flex-1">
                    <h3 id={`own-${c.id}`} className="font-bold break-words">
                      <Link to={publicCampaignPath(c.slug)} className="text-brand-800 underline">
                        <UserText>{c.title}</UserText>
                      </Link>
                    </h3>
                    <p className="mt-1 text-sm text-slate-700">
                      {c.partners === 0
                        ? t("collab:own.noPartners")
                        : t(c.partners === 1 ? "collab:own.partnersOne" : "collab:own.partners", { count: c.partners })}
                      {c.pending > 0 && <> · {t("collab:own.pending", { count: c.pending })}</>}
                    </p>
                  </div>
                  {chosen ? (
                    <span className="rounded bg-brand-50 px-2 py-1 text-sm font-bold text-brand-900">{t("collab:own.chosen")}</span>
                  ) : (
                    <Link to={choose(c.id)} className={`${secondaryButton} inline-block`}>
                      {t("collab:own.invite")}
                      <span className="sr-only">: {c.title}</span>
                    </Link>
                  )}
                </article>
              </li>
            );
          })}
        </ul>
      )}
      <Pager page={own.page} pages={own.pages} param="ownPage" label={t("collab:own.heading")} />
    </section>
  );
}

/**
 * One form for choosing the campaign, searching NGOs and inviting them: Search reloads the page with GET
 * (keeping the chosen campaign), Collaborate posts. The NGOs are checkboxes that look like Select / Selected
 * toggles; CSS alone highlights a selected row, so it works the same without JavaScript.
 */
function InviteSection({
  data: d,
  lastResult,
  unchanged,
}: {
  data: LoaderData;
  lastResult?: SubmissionResult<string[]>;
  /** How many NGOs a Collaborate that changed nothing had chosen (all already invited or partners). */
  unchanged: number;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/collab.ts").then((m) => m.inviteSchema), { id: "invite", lastResult });
  const formProps = getFormProps(form);
  const campaignError = fields.campaignId.errors?.[0];
  const ngoError = fields.ngoIds.errors?.[0] ?? Object.values(fields.ngoIds.allErrors ?? {}).flat()[0];
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "invite";
  const previously = lastResult?.initialValue?.ngoIds;
  const checked = new Set(Array.isArray(previously) ? previously.map(String) : previously ? [String(previously)] : []);
  const selectedId = d.selected?.id ?? "";
  // Collaborate posts to this very URL, so a refused post shows the same campaign and search again.
  const location = useLocation();
  return (
    <section id="invite-partners" aria-labelledby="invite-heading" className="scroll-mt-4">
      <h2 id="invite-heading" className={sectionHeading}>
        {t("collab:invite.heading")}
      </h2>
      {unchanged > 0 && (
        <p role="status" className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
          {t(unchanged === 1 ? "collab:invite.nothingChangedOne" : "collab:invite.nothingChanged", { count: unchanged })}
        </p>
      )}
      {d.campaigns.length === 0 ? (
        <p className="mt-2 text-slate-700">
          {t("collab:invite.noCampaigns")}{" "}
          <Link to="/create_camp" className="font-bold text-brand-800 underline">
            {t("collab:invite.createOne")}
          </Link>
        </p>
      ) : (
        <Form
          method="get"
          action={`${location.pathname}${location.search}`}
          {...formProps}
          onSubmit={(event) => {
            // Search is a plain GET that must not be held up by the invitation's checks. Collaborate, and the
            // checks Conform runs when a field is left (a submit with its own intent button), go to Conform, which
            // keeps the latter in the browser: let through, they would reload the page as a search.
            const submitter = (event.nativeEvent as SubmitEvent).submitter;
            if (submitter?.getAttribute("formmethod") === "post" || submitter?.getAttribute("name") === FORM_INTENT)
              formProps.onSubmit(event);
          }}
          className="mt-3 rounded-lg bg-white p-4 shadow-sm"
        >
          <ErrorBox errors={form.errors} />
          <div className="flex flex-wrap items-end gap-3">
            <div className="flex max-w-full min-w-0 flex-col gap-1">
              <label htmlFor="invite-campaign" className="font-medium text-slate-800">
                {t("collab:invite.campaign")}
              </label>
              <select
                key={selectedId}
                id="invite-campaign"
                name="campaignId"
                defaultValue={selectedId}
                aria-invalid={campaignError ? true : undefined}
                aria-describedby={campaignError ? "invite-campaign-error" : undefined}
                className="max-w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600"
              >
                <option value="">{t("collab:invite.chooseCampaign")}</option>
                {d.campaigns.map((c) => (
                  <UserOption key={c.id} value={c.id} text={c.title} />
                ))}
                {d.selected && !d.campaigns.some((c) => c.id === d.selected!.id) && (
                  <UserOption value={d.selected.id} text={d.selected.title} />
                )}
              </select>
            </div>
            <div className="flex min-w-0 flex-col gap-1">
              <label htmlFor="invite-q" className="font-medium text-slate-800">
                {t("collab:invite.search")}
              </label>
              <input
                id="invite-q"
                name="q"
                type="search"
                defaultValue={d.q}
                maxLength={100}
                className="rounded-md border border-slate-400 bg-white px-3 py-2 text-base"
              />
            </div>
            <button type="submit" className={`${primaryButton} inline-flex items-center gap-1`}>
              <Search aria-hidden="true" className="size-4" />
              {t("collab:invite.searchButton")}
            </button>
            {d.q && (
              <Link to={selectedId ? `?campaignId=${selectedId}` : "?"} className="px-2 py-2 text-brand-800 underline">
                {t("collab:invite.clearSearch")}
              </Link>
            )}
          </div>
          {campaignError && (
            <p id="invite-campaign-error" className="mt-2 text-sm font-medium text-red-700">
              {t(campaignError)}
            </p>
          )}
          <p className="mt-3 text-slate-800">
            {d.selected ? t("collab:invite.inviteTo", { title: d.selected.title }) : t("collab:invite.noCampaignChosen")}
          </p>

          <fieldset className="mt-4" aria-describedby={`invite-hint${ngoError ? " invite-ngos-error" : ""}`}>
            <legend className="font-bold text-slate-900">{t("collab:invite.ngos")}</legend>
            <p id="invite-hint" className="text-sm text-slate-600">
              {t("collab:invite.hint")}
            </p>
            {ngoError && (
              <p id="invite-ngos-error" className="mt-1 text-sm font-medium text-red-700">
                {t(ngoError)}
              </p>
            )}
            {d.ngos.rows.length === 0 ? (
              <p className="mt-2 text-slate-700">{t("collab:invite.none")}</p>
            ) : (
              <ul className="mt-3 grid gap-2 sm:grid-cols-2">
                {d.ngos.rows.map((n) => (
                  <NgoRow key={`${n.id}-${lastResult ? "r" : ""}`} ngo={n} checked={checked.has(n.id)} />
                ))}
              </ul>
            )}
          </fieldset>
          <Pager page={d.ngos.page} pages={d.ngos.pages} label={t("collab:invite.ngos")} />
          <div className="mt-4">
            {/* Named, so the post says what it is; `formMethod` makes only this button post. */}
            <button type="submit" name="intent" value="invite" formMethod="post" disabled={busy} className={primaryButton}>
              {busy ? t("common:loading") : t("collab:invite.collaborate")}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}

function NgoRow({ ngo, checked }: { ngo: NgoChoice; checked: boolean }) {
  const { t } = useTranslation();
  const logo = (
    <img
      src={pictureUrl(ngo.logoKey, "logo")}
      alt=""
      width={40}
      height={40}
      loading="lazy"
      className="size-10 shrink-0 rounded-full border border-slate-200 bg-white object-cover"
    />
  );
  if (ngo.state === "partner" || ngo.state === "invited") {
    return (
      <li className="flex items-center gap-3 rounded-lg border-2 border-slate-200 bg-slate-50 p-3">
        {logo}
        <span className="min-w-0 flex-1">
          <UserText className="block font-medium break-words">{ngo.name}</UserText>
          <span className="mt-0.5 inline-block rounded bg-slate-200 px-2 py-0.5 text-sm font-medium text-slate-800">
            {t(`collab:invite.states.${ngo.state}`)}
          </span>
        </span>
      </li>
    );
  }
  return (
    <li>
      <label className="group flex cursor-pointer items-center gap-3 rounded-lg border-2 border-slate-200 bg-white p-3 hover:border-brand-600 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-amber-500">
        <input type="checkbox" name="ngoIds" value={ngo.id} defaultChecked={checked} className="peer sr-only" />
        {logo}
        <span className="min-w-0 flex-1">
          <UserText className="block font-medium break-words">{ngo.name}</UserText>
          {ngo.state === "requested" && <span className="block text-sm text-slate-700">{t("collab:invite.states.requested")}</span>}
        </span>
        <span
          aria-hidden="true"
          className="shrink-0 rounded-md border-2 border-brand-700 px-3 py-1 text-sm font-bold text-brand-800 group-has-checked:bg-brand-700 group-has-checked:text-white"
        >
          <span className="group-has-checked:hidden">{t("collab:invite.select")}</span>
          <span className="hidden group-has-checked:inline">{t("collab:invite.selected")}</span>
        </span>
      </label>
    </li>
  );
}

type Lists = Route.ComponentProps["loaderData"];

/** Each step's button label. */
const ACTION_LABELS: Record<"acceptInvitation" | "declineInvitation" | "acceptRequest" | "declineRequest", string> = {
  acceptInvitation: "collab:invitations.accept",
  declineInvitation: "collab:invitations.decline",
  acceptRequest: "collab:requests.accept",
  declineRequest: "collab:requests.decline",
};

/** A one-click POST form: hidden fields and a submit button. */
function ActionButton({
  intent,
  fields,
  label,
  context,
  primary,
}: {
  intent: string;
  fields: Record<string, string>;
  label: string;
  /** Said after the label to screen readers, so each button names what it acts on. */
  context: string;
  primary?: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={primary ? primaryButton : secondaryButton}>
        {label}
        <span className="sr-only"> {context}</span>
      </button>
    </Form>
  );
}

function InvitationsSection({ invitations }: { invitations: Lists["invitations"] }) {
  const { t } = useTranslation();
  return (
    <section id="invitations" aria-labelledby="invitations-heading" className="scroll-mt-4">
      <h2 id="invitations-heading" className={sectionHeading}>
        {t("collab:invitations.heading")} <span className="text-base font-normal text-slate-600">({invitations.total})</span>
      </h2>
      {invitations.rows.length === 0 ? (
        <p className="mt-2 text-slate-700">{t("collab:invitations.none")}</p>
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-3 lg:grid-cols-2">
          {invitations.rows.map((i) => (
            <li key={i.campaignId}>
              <article aria-labelledby={`invitation-${i.campaignId}`} className="h-full rounded-lg bg-white p-4 shadow-sm">
                <h3 id={`invitation-${i.campaignId}`} className="font-bold break-words">
                  <Link to={publicCampaignPath(i.slug)} className="text-brand-800 underline">
                    <UserText>{i.title}</UserText>
                  </Link>
                </h3>
                <p className="mt-1 flex items-center gap-2 text-slate-800">
                  <img src={pictureUrl(i.logoKey, "logo")} alt="" width={24} height={24} className="size-6 rounded-full object-cover" />
                  {t("collab:invitations.from", { ngo: i.ngoName })}
                </p>
                <p className="text-sm text-slate-600">
                  <DateTime value={i.createdAt} />
                </p>
                <div className="mt-3 flex flex-wrap gap-3">
                  {i.actions.map((intent) => (
                    <ActionButton
                      key={intent}
                      intent={intent}
                      fields={{ campaignId: i.campaignId }}
                      label={t(ACTION_LABELS[intent])}
                      context={i.title}
                      primary={intent === "acceptInvitation"}
                    />
                  ))}
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <Pager page={invitations.page} pages={invitations.pages} param="invitationsPage" label={t("collab:invitations.heading")} />
    </section>
  );
}

function RequestsSection({ requests }: { requests: Lists["requests"] }) {
  const { t } = useTranslation();
  return (
    <section id="requests" aria-labelledby="requests-heading" className="scroll-mt-4">
      <h2 id="requests-heading" className={sectionHeading}>
        {t("collab:requests.heading")} <span className="text-base font-normal text-slate-600">({requests.total})</span>
      </h2>
      {requests.rows.length === 0 ? (
        <p className="mt-2 text-slate-700">{t("collab:requests.none")}</p>
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-3 lg:grid-cols-2">
          {requests.rows.map((r) => (
            <li key={`${r.campaignId}-${r.ngoId}`}>
              <article aria-labelledby={`request-${r.campaignId}-${r.ngoId}`} className="h-full rounded-lg bg-white p-4 shadow-sm">
                <h3 id={`request-${r.campaignId}-${r.ngoId}`} className="flex items-center gap-2 font-bold break-words">
                  <img src={pictureUrl(r.logoKey, "logo")} alt="" width={24} height={24} className="size-6 rounded-full object-cover" />
                  {t("collab:requests.asks", { ngo: r.ngoName })}
                </h3>
                <UserText as="p" className="mt-1 break-words text-slate-800">
                  {r.title}
                </UserText>
                <p className="text-sm text-slate-600">
                  <DateTime value={r.createdAt} />
                </p>
                <div className="mt-3 flex flex-wrap gap-3">
                  {r.actions.map((intent) => (
                    <ActionButton
                      key={intent}
                      intent={intent}
                      fields={{ campaignId: r.campaignId, ngoId: r.ngoId }}
                      label={t(ACTION_LABELS[intent])}
                      context={`${r.ngoName}: ${r.title}`}
                      primary={intent === "acceptRequest"}
                    />
                  ))}
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <Pager page={requests.page} pages={requests.pages} param="requestsPage" label={t("collab:requests.heading")} />
    </section>
  );
}

function JointSection({ joint }: { joint: Lists["joint"] }) {
  const { t, i18n } = useTranslation();
  const money = (n: number) => formatRupees(n, i18n.language);
  return (
    <section id="joint" aria-labelledby="joint-heading" className="scroll-mt-4">
      <h2 id="joint-heading" className={sectionHeading}>
        {t("collab:joint.heading")} <span className="text-base font-normal text-slate-600">({joint.total})</span>
      </h2>
      {joint.rows.length === 0 ? (
        <p className="mt-2 text-slate-700">{t("collab:joint.none")}</p>
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-4 lg:grid-cols-2">
          {joint.rows.map((c) => (
            <li key={c.id}>
              <article aria-labelledby={`joint-${c.id}`} className="h-full rounded-lg bg-white p-4 shadow-sm">
                <h3 id={`joint-${c.id}`} className="text-lg font-bold break-words">
                  <UserText>{c.title}</UserText>
                </h3>
                <p className="mt-1 flex flex-wrap gap-2 text-sm text-slate-700">
                  <span>{t(c.role === "owner" ? "collab:joint.youOwn" : "collab:joint.youPartner")}</span>
                  {c.status === "completed" && (
                    <span className="rounded bg-emerald-100 px-2 font-medium text-emerald-900">{t("collab:joint.completed")}</span>
                  )}
                </p>
                <div className="mt-3">
                  {progressBar({
                    collected: c.collectedAmount,
                    target: c.targetAmount,
                    label: t("collab:joint.raised", { collected: money(c.collectedAmount), target: money(c.targetAmount) }),
                  })}
                </div>
                <h4 className="mt-3 font-medium text-slate-800">{t("collab:joint.partners")}</h4>
                {c.raised === 0 && <p className="text-sm text-slate-700">{t("collab:joint.nothingRaised")}</p>}
                <ul className="mt-1 divide-y divide-slate-200">
                  {c.ngos.map((n) => (
                    <li key={n.id} className="flex items-start gap-2 py-1.5">
                      <img
                        src={pictureUrl(n.logoKey, "logo")}
                        alt=""
                        width={28}
                        height={28}
                        className="size-7 shrink-0 rounded-full object-cover"
                      />
                      <span className="min-w-0 flex-1 break-words">
                        <UserText className="font-medium">{n.name}</UserText>{" "}
                        <span className="text-sm text-slate-600">({t(`collab:joint.roles.${n.role}`)})</span>
                        {/* A part of what was raised, in words: never a bar, which would read as progress toward the goal. */}
                        <span className="block text-slate-800 tabular-nums">
                          {c.raised === 0
                            ? money(n.share)
                            : t("collab:joint.share", { amount: money(n.share), share: formatShare(n.shareOfRaised, i18n.language) })}
                        </span>
                      </span>
                    </li>
                  ))}
                </ul>
                <div className="mt-3 flex flex-wrap items-start gap-3">
                  <Link to={publicCampaignPath(c.slug)} className="py-1.5 font-medium text-brand-800 underline">
                    {t("collab:joint.publicPage")}
                    <span className="sr-only">: {c.title}</span>
                  </Link>
                  {c.actions.includes("leave") && <LeaveForm id={c.id} title={c.title} />}
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <Pager page={joint.page} pages={joint.pages} param="jointPage" label={t("collab:joint.heading")} />
    </section>
  );
}

/** Leaving takes a second, explicit step: a native disclosure, so it works without JavaScript. */
function LeaveForm({ id, title }: { id: string; title: string }) {
  const { t } = useTranslation();
  return (
    <details className="min-w-0 flex-1">
      <summary className="inline-block cursor-pointer rounded-md border-2 border-red-700 px-4 py-1.5 font-bold text-red-800 hover:bg-red-50">
        {t("collab:joint.leave")}
      </summary>
      <Form method="post" className="mt-2 flex flex-col gap-2">
        <input type="hidden" name="intent" value="leave" />
        <input type="hidden" name="campaignId" value={id} />
        <p className="text-sm text-slate-700">{t("collab:joint.leaveHint")}</p>
        <button type="submit" className="self-start rounded-md bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800">
          {t("collab:joint.leaveConfirm", { title })}
        </button>
      </Form>
    </details>
  );
}
