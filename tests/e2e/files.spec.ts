import sharp from "sharp";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { saveImage } from "#server/domain/files/files.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { e2ePort } from "./env.ts";
import { expect, test } from "./fixtures.ts";

async function png() {
  const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0a0" } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "p.png", { type: "image/png" });
}

test("private pictures reach only their owner and the admin; logos are public", async ({ db, playwright }) => {
  // The server under test keeps its files here (see playwright.config.ts).
  const storage = createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);
  const owner = await makeUser(db, "donor");
  const other = await makeUser(db, "donor");
  const admin = await makeUser(db, "admin");
  const ngo = await makeUser(db, "ngo");
  const avatar = await saveImage({ db, storage }, { file: await png(), kind: "avatar", ownerId: owner.id, field: "picture" });
  const logo = await saveImage({ db, storage }, { file: await png(), kind: "logo", ownerId: ngo.id, field: "logo" });

  const as = async (userId: string | null) => {
    const headers: Record<string, string> = {};
    if (userId) headers.cookie = `${SESSION_COOKIE}=${(await createSession(db, userId)).token}`;
    return playwright.request.newContext({ baseURL: `http://127.0.0.1:${e2ePort()}`, extraHTTPHeaders: headers });
  };

  const anonymous = await as(null);
  expect((await anonymous.get(`/files/${avatar}`)).status()).toBe(404);
  const logoResponse = await anonymous.get(`/files/${logo}`);
  expect(logoResponse.status()).toBe(200);
  expect(logoResponse.headers()["content-type"]).toBe("image/webp");
  expect(logoResponse.headers()["x-content-type-options"]).toBe("nosniff");
  // A stored file's bytes never change under its key: a public one is kept a year.
  expect(logoResponse.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

  expect((await (await as(other.id)).get(`/files/${avatar}`)).status()).toBe(404);
  // The address of a narrower copy is read with the picture's rules.
  const copy = avatar.replace(".webp", ".w480.webp");
  expect((await anonymous.get(`/files/${copy}`)).status()).toBe(404);
  expect((await (await as(other.id)).get(`/files/${copy}`)).status()).toBe(404);
  expect((await (await as(owner.id)).get(`/files/${copy}`)).headers()["cache-control"]).toBe("private, no-store");
  const mine = await (await as(owner.id)).get(`/files/${avatar}`);
  expect(mine.status()).toBe(200);
  expect(mine.headers()["cache-control"]).toContain("private");
  expect((await (await as(admin.id)).get(`/files/${avatar}`)).status()).toBe(200);
  expect((await anonymous.get("/files/avatar/..%2F..%2Fetc%2Fpasswd")).status()).toBe(404);
});
