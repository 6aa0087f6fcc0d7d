import { data, redirect } from "react-router";
import type { AppContext } from "#app/lib/load-context.ts";
import { campaignSchema, type CampaignValues } from "#shared/forms/campaigns.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { formAction, readFormData } from "#app/lib/http.server.ts";

/**
 * The action of the create and edit screens: parse the form with the campaign schema, run the domain
 * call, then go back to the list with a notice. A failure that is not the user's (the database or the
 * disk) is logged and shown as the specification's 'Error creating campaign. Please try again later.'
 */
export async function campaignFormAction(
  request: Request,
  context: AppContext,
  run: (values: CampaignValues) => Promise<unknown>,
  done: string,
  failure: "campaigns:errors.createFailed" | "campaigns:errors.saveFailed",
) {
  const submission = parseWithZod(await readFormData(request, context), { schema: campaignSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), errorParams: undefined }, { status: 400 });
  try {
    const out = await formAction(submission, () => run(submission.value));
    if (!out.ok) return out.answer();
  } catch (err) {
    context.services.log.error({ err }, "saving a campaign failed");
    return data({ result: submission.reply({ formErrors: [failure] }), errorParams: undefined }, { status: 503 });
  }
  return redirect(done);
}

/** What the place field's small map needs from the server's configuration. */
export function mapSettings(context: AppContext) {
  return { tileUrl: context.services.config.MAP_TILE_URL, tileAttribution: context.services.config.MAP_TILE_ATTRIBUTION };
}
