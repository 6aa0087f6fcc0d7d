import { count } from "drizzle-orm";
import { volunteerPositions } from "#server/db/schema.ts";
import { baseUrl, expect, test } from "./fixtures.ts";

/** A multipart body cut off in transit: the closing boundary never arrives. */
const CUT_OFF = '--XX\r\nContent-Disposition: form-data; name="title"\r\n\r\nHalf a form';
const MESSAGE = "The form did not reach us completely, so nothing was changed. Please go back and send it again.";

test("a form cut off in transit is answered 400 with a message to send it again, and changes nothing", async ({
  page,
  login,
  db,
  context,
}) => {
  const send = (path: string) =>
    page.request.post(path, {
      data: CUT_OFF,
      headers: { Origin: baseUrl(), "Content-Type": "multipart/form-data; boundary=XX" },
      maxRedirects: 0,
    });
  await login({ role: "ngo" });
  const [before] = await db.select({ n: count() }).from(volunteerPositions);
  for (const path of ["/vol1", "/vol0", "/create_camp", "/apps", "/settingsNGO"]) {
    const answer = await send(path);
    expect(answer.status(), path).toBe(400);
    expect(await answer.text(), path).toContain(MESSAGE);
  }
  const [after] = await db.select({ n: count() }).from(volunteerPositions);
  expect(after!.n).toBe(before!.n);

  await context.clearCookies();
  await login({ role: "donor" });
  for (const path of ["/vfg3", "/donate3", "/donate5_1"]) {
    const answer = await send(path);
    expect(answer.status(), path).toBe(400);
    expect(await answer.text(), path).toContain(MESSAGE);
  }

  // The rider's page has its own forms and the shared settings forms behind one action: one read of the body.
  await context.clearCookies();
  await login({ role: "rider" });
  const rider = await send("/rider_profile");
  expect(rider.status()).toBe(400);
  expect(await rider.text()).toContain(MESSAGE);
});
