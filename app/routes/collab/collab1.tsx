import { pageTitle } from "#app/components/role-shell.tsx";
import { CircleCheck } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/collab1";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser } from "#app/lib/http.server.ts";

export const handle = pageTitle("collab:done.title");

/** A count from the query string; anything odd is 0, so a hand-edited URL never errors. */
function countParam(value: string | null): number {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isInteger(n) && n >= 0 && n <= 1000 ? n : 0;
}

const REQUEST_OUTCOMES = ["requested", "alreadyRequested", "joined"] as const;
type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "ngo");
  const url = new URL(request.url);
  const request_ = url.searchParams.get("request");
  return {
    invited: countParam(url.searchParams.get("invited")),
    joined: countParam(url.searchParams.get("joined")),
    unchanged: countParam(url.searchParams.get("unchanged")),
    request: (REQUEST_OUTCOMES as readonly string[]).includes(request_ ?? "") ? (request_ as RequestOutcome) : null,
  };
}

/**
 * /collab1: the specification's confirmation after Collaborate ('Collaboration has successfully been made',
 * Go Back to /collab), with what was done; also confirms a request to join another NGO's campaign.
 */
export default function CollaborationDone({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { invited, joined, unchanged, request } = loaderData;
  const heading = request === "requested" || request === "alreadyRequested" ? t("collab:done.requested") : t("collab:done.made");
  return (
    <>
      <title>{`${t("collab:done.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto max-w-xl rounded-lg bg-white p-6 text-center shadow-sm">
        <CircleCheck aria-hidden="true" className="mx-auto size-14 text-emerald-600" />
        <div role="status">
          <h2 className="mt-3 text-2xl font-bold text-brand-900">{heading}</h2>
          {request === null && (
            <>
              {invited > 0 && (
                <p className="mt-3 text-slate-800">
                  {invited === 1 ? t("collab:done.invitedOne") : t("collab:done.invitedMany", { count: invited })}
                </p>
              )}
              {joined > 0 && <p className="mt-2 text-slate-800">{t("collab:done.joined", { count: joined })}</p>}
              {unchanged > 0 && <p className="mt-2 text-slate-700">{t("collab:done.unchanged", { count: unchanged })}</p>}
            </>
          )}
          {request === "requested" && <p className="mt-3 text-slate-800">{t("collab:done.requestedText")}</p>}
          {request === "alreadyRequested" && <p className="mt-3 text-slate-800">{t("collab:done.alreadyRequested")}</p>}
          {request === "joined" && <p className="mt-3 text-slate-800">{t("collab:done.joinedDirect")}</p>}
        </div>
        <Link
          to={request === "joined" ? "/collab#joint" : "/collab"}
          className="mt-6 inline-block rounded-lg bg-brand-700 px-6 py-2 font-bold text-white hover:bg-brand-800"
        >
          {t("collab:done.goBack")}
        </Link>
      </div>
    </>
  );
}
