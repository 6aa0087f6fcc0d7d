import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { formatDateTime, formatDay } from "#shared/format.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { positionStatusSchema } from "#shared/forms/volunteering.ts";
import { POSITION_CLOSES_MAX_DAYS } from "#shared/constants.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { placeLabelFor } from "#shared/places.ts";
import { parsePage } from "#server/db/query.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { closePosition, positionsOfNgo, reopenPosition } from "#server/domain/volunteering/positions.ts";
import { positionStates, type PositionAction } from "#server/domain/volunteering/states.ts";

const NOTICES = ["created", "closed", "reopened"] as const;
type Notice = (typeof NOTICES)[number];
export type PositionsState = "open" | "closed";

/**
 * The step each tab offers on a card, when the position's row of the transition table allows it: Active closes,
 * Closed reopens. A lapsed position (its closing day passed) allows both; it is listed under Closed, so it offers
 * reopen there.
 */
const TAB_ACTION: Record<PositionsState, PositionAction> = { open: "close", closed: "reopen" };

/** /vol0 and /cc1 (Active, `open`) and /volClosed (`closed`): the NGO's own positions in that state, paged. */
export async function positionsLoader({ context, request }: LoaderFunctionArgs, state: PositionsState) {
  const user = requireUser(context, "ngo");
  const url = new URL(request.url);
  const list = await positionsOfNgo(context.services.db, user, { state, page: parsePage(url.searchParams.get("page")) });
  const day = (d: string) => formatDay(d, context.lang);
  const today = pakistanToday();
  const notice = url.searchParams.get("notice");
  return {
    state,
    notice: (NOTICES as readonly string[]).includes(notice ?? "") ? (notice as Notice) : null,
    days: { min: today, max: addDays(today, POSITION_CLOSES_MAX_DAYS) },
    positions: {
      ...list,
      rows: list.rows.map((p) => ({
        id: p.id,
        title: p.title,
        poster: p.posterKey ? pictureUrl(p.posterKey, "campaign") : null,
        cityLabel: p.cityLabel && placeLabelFor({ label: p.cityLabel, labelUr: p.cityLabelUr }, context.lang),
        workingHours: p.workingHours,
        duration: p.duration,
        timings: p.timings,
        closesOn: p.closesOn ? day(p.closesOn) : null,
        volunteersNeeded: p.volunteersNeeded,
        applied: p.applied,
        accepted: p.accepted,
        waiting: p.waiting,
        // Why a closed position is closed: its closing day passed, or the NGO closed it (and when).
        closedByDate: p.closedByDate,
        closedAt: p.closedAt ? formatDateTime(p.closedAt, context.lang).text : null,
        actions: positionStates.actionsFor(p.state, "owner").filter((a) => a === TAB_ACTION[state]),
      })),
    },
  };
}

/** Closes or reopens one position; a close goes back to `from`, the page it was closed on (/vol0 or its twin /cc1). */
export async function positionsAction({ context, request }: ActionFunctionArgs, from: "/vol0" | "/cc1") {
  const user = requireUser(context, "ngo");
  const submission = parseWithZod(await readFormData(request, context), { schema: positionStatusSchema });
  // Which card the answer belongs to, so its error shows next to that position's form.
  const positionId = String(submission.payload.positionId ?? "");
  if (submission.status !== "success") return data({ result: submission.reply(), positionId }, { status: 400 });
  const input = submission.value;
  try {
    const out = await formAction(submission, () =>
      input.intent === "close"
        ? closePosition(context.services.db, user, input.positionId)
        : reopenPosition(context.services.db, user, input.positionId, input.closesOn),
    );
    if (!out.ok) return out.answer({ positionId });
  } catch (err) {
    context.services.log.error({ err }, "changing a volunteer position failed");
    return data({ result: submission.reply({ formErrors: ["volunteer:errors.saveFailed"] }), positionId }, { status: 503 });
  }
  if (input.intent === "reopen") return redirect("/volClosed?notice=reopened");
  return redirect(`${from}?notice=closed`);
}
