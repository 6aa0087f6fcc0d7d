import { pageTitle } from "#app/components/role-shell.tsx";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/settings";
import { brandButton } from "#app/components/ui/button.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { readFormData, requireUser } from "#app/lib/http.server.ts";
import { platformSchema } from "#shared/forms/admin.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { platformSettingsOf, setRaastQr } from "#server/domain/admin/platform.ts";

export const handle = pageTitle("admin:platform.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "admin");
  const saved = new URL(request.url).searchParams.get("saved") === "1";
  return { settings: await platformSettingsOf(context.services.db), saved };
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireUser(context, "admin");
  const submission = parseWithZod(await readFormData(request, context), { schema: platformSchema });
  if (submission.status !== "success") return data({ error: "admin:platform.invalid" }, { status: 400 });
  await setRaastQr(context.services.db, admin, submission.value.raastQr === "on");
  return data({ error: null, saved: true });
}

/** /admin/settings: platform-wide switches (the Raast QR on payment screens and posters). */
export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const on = loaderData.settings.raastQr;
  return (
    <>
      <title>{`${t("admin:platform.title")} · ${t("common:brand")}`}</title>
      <section aria-labelledby="raast-heading" className="max-w-3xl rounded-lg bg-white p-4 shadow-sm sm:p-6">
        <h2 id="raast-heading" className="text-xl font-bold text-brand-900">
          {t("admin:platform.raastHeading")}
        </h2>
        <p className="mt-1 text-slate-700">{t("admin:platform.raastLead")}</p>
        <p className="mt-3 font-medium" data-testid="raast-state">
          {t(on ? "admin:platform.raastOn" : "admin:platform.raastOff")}
        </p>
        {actionData && "error" in actionData && actionData.error && (
          <p role="alert" className="mt-2 text-red-700">
            {t(actionData.error)}
          </p>
        )}
        {actionData && "saved" in actionData && actionData.saved && (
          <p role="status" className="mt-2 text-emerald-800">
            {t("admin:platform.saved")}
          </p>
        )}
        <Form method="post" className="mt-3">
          <input type="hidden" name="raastQr" value={on ? "off" : "on"} />
          <button type="submit" disabled={navigation.state === "submitting"} className={brandButton("regular")}>
            {t(on ? "admin:platform.turnOff" : "admin:platform.turnOn")}
          </button>
        </Form>
      </section>
    </>
  );
}
