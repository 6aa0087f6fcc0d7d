import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "react-router";
import { formatDateTime } from "#shared/format.ts";
import { applicationDecisionSchema } from "#shared/forms/volunteering.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { applicationForNgo, decideApplication } from "#server/domain/volunteering/applications.ts";
import { applicationStates } from "#server/domain/volunteering/states.ts";

const REVIEW_PATH = "/vol3";

const reviewHref = (id: string) => `${REVIEW_PATH}?application=${encodeURIComponent(id)}`;

/** /vol3 (`review`: one application, to decide while it waits) and /volPSDAA (`approved`: an approved one, read-only). */
export async function applicationLoader({ context, request }: LoaderFunctionArgs, view: "review" | "approved") {
  const ngo = requireUser(context, "ngo");
  const url = new URL(request.url);
  const id = url.searchParams.get("application") ?? "";
  let detail;
  try {
    detail = await applicationForNgo(context.services.db, ngo, id);
  } catch (err) {
    // Another NGO's application is answered like one that does not exist.
    throwHttp(err);
  }
  const approvedView = view === "approved";
  // /volPSDAA is the view of an approved application only; anything else is reviewed (or read) on /vol3.
  if (approvedView && detail.status !== "approved") throw redirect(reviewHref(detail.id));
  const when = (d: Date) => formatDateTime(d, context.lang);
  return {
    approvedView,
    alreadyDecided: url.searchParams.get("notice") === "alreadyDecided",
    // What the NGO may still do with it, from the transition table: Approve and Decline are offered only then.
    actions: applicationStates.actionsFor(detail.status, "positionNgo"),
    application: { ...detail, createdAt: when(detail.createdAt), decidedAt: detail.decidedAt ? when(detail.decidedAt) : null },
  };
}

/** Approves or declines the application (with the overfill confirmation); a decision made meanwhile is shown as it stands. */
export async function applicationAction({ context, request }: ActionFunctionArgs) {
  const ngo = requireUser(context, "ngo");
  const submission = parseWithZod(await readFormData(request, context), { schema: applicationDecisionSchema });
  const intent = String(submission.payload.intent ?? "");
  if (submission.status !== "success") {
    return data({ result: submission.reply(), intent, overfill: null }, { status: 400 });
  }
  const input = submission.value;
  const outcome = await formAction(submission, async () => {
    const { position } = await applicationForNgo(context.services.db, ngo, input.applicationId);
    const decided = await decideApplication(
      context.services,
      ngo,
      input.intent === "approve"
        ? { applicationId: input.applicationId, approve: true, confirm: input.confirm === "yes" }
        : { applicationId: input.applicationId, approve: false, message: input.message },
    );
    return { ...decided, positionId: position.id };
  });
  if (!outcome.ok) {
    const { refusal } = outcome;
    if (refusal.code === "volunteer.already_decided") {
      // Decided the other way meanwhile (another tab, a colleague): show it as it now stands.
      return redirect(`${reviewHref(input.applicationId)}&notice=alreadyDecided`);
    }
    if (refusal.code === "volunteer.confirm_overfill") {
      // Not an error but a question: the page asks it, with the counts, and offers "Approve anyway".
      const overfill = { needed: String(refusal.params?.needed ?? ""), accepted: String(refusal.params?.accepted ?? "") };
      return data({ result: submission.reply(), intent, overfill }, { status: refusal.status });
    }
    return outcome.answer({ intent, overfill: null });
  }
  const { status, positionId } = outcome.value;
  return redirect(`/vol2?position=${positionId}&notice=${status}`);
}
