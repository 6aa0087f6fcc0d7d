import { pageTitle } from "#app/components/role-shell.tsx";
import { data, redirect } from "react-router";
import type { Route } from "./+types/create";
import { PositionForm } from "#app/components/position-form.tsx";
import { parseWithZod } from "#shared/forms/parse.ts";
import { positionSchema } from "#shared/forms/volunteering.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { POSITION_CLOSES_MAX_DAYS } from "#shared/constants.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { createPosition } from "#server/domain/volunteering/positions.ts";
import { mapSettings } from "#app/components/campaigns/campaign-action.server.ts";

export const handle = pageTitle("positions:form.heading");

export function loader({ context }: Route.LoaderArgs) {
  requireUser(context, "ngo");
  const today = pakistanToday();
  return { map: mapSettings(context), days: { min: today, max: addDays(today, POSITION_CLOSES_MAX_DAYS) } };
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  const submission = parseWithZod(await readFormData(request, context), { schema: positionSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const out = await formAction(submission, () => createPosition(context.services, user, submission.value));
    if (!out.ok) return out.answer();
  } catch (err) {
    // Not the user's doing (the database, the disk): logged, and the form stays filled in.
    context.services.log.error({ err }, "posting a volunteer position failed");
    return data({ result: submission.reply({ formErrors: ["volunteer:errors.saveFailed"] }) }, { status: 503 });
  }
  return redirect("/vol0?notice=created");
}

/** /vol1: the NGO posts a volunteer position. */
export default function CreatePosition({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <title>{`${t("positions:form.heading")} · ${t("common:brand")}`}</title>
      <div className="mx-auto max-w-2xl rounded-lg bg-white p-4 shadow-sm sm:p-6">
        <PositionForm lastResult={actionData?.result} map={loaderData.map} days={loaderData.days} />
      </div>
    </>
  );
}
