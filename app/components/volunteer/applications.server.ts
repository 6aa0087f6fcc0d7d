import { APPLICATION_TABS, type ApplicationTab } from "#app/components/application-parts.tsx";
import { formatDateTime } from "#shared/format.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { parsePage } from "#server/db/query.ts";
import { applicationsForNgo } from "#server/domain/volunteering/applications.ts";
import { positionChoices } from "#server/domain/volunteering/positions.ts";
import type { LoaderFunctionArgs } from "react-router";

const NOTICES = ["approved", "declined"] as const;

/** /vol2 (live), /volApproved and /volRejected: the NGO's applications under one tab, filtered by position. */
export async function applicationsLoader({ context, request }: LoaderFunctionArgs, tab: ApplicationTab) {
  const ngo = requireUser(context, "ngo");
  const { db } = context.services;
  const url = new URL(request.url);
  const current = APPLICATION_TABS.find((t) => t.tab === tab)!;
  const positions = await positionChoices(db, ngo);
  // An unknown position (or another NGO's) is no filter at all: the list shows every position.
  const requested = url.searchParams.get("position") ?? "";
  const position = positions.some((p) => p.id === requested) ? requested : "";
  const list = await applicationsForNgo(db, ngo, {
    status: current.status,
    positionId: position || undefined,
    page: parsePage(url.searchParams.get("page")),
  });
  const when = (d: Date) => formatDateTime(d, context.lang);
  const notice = url.searchParams.get("notice");
  return {
    tab: current.tab as ApplicationTab,
    path: current.path,
    position,
    positions,
    notice: (NOTICES as readonly string[]).includes(notice ?? "") ? (notice as (typeof NOTICES)[number]) : null,
    list: {
      ...list,
      rows: list.rows.map((r) => ({
        id: r.id,
        applicantName: r.applicantName,
        applicantEmail: r.applicantEmail,
        positionTitle: r.positionTitle,
        hasResume: r.hasResume,
        createdAt: when(r.createdAt),
        decidedAt: r.decidedAt ? when(r.decidedAt) : null,
      })),
    },
  };
}
