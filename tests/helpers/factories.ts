import { eq } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { users } from "../../server/db/schema";
import { createAccount } from "../../server/domain/accounts/accounts";
import { uniqueEmail } from "./services";

export const TEST_PASSWORD = "Str0ng-test-pass";

/** Creates an account of the given role (verified unless told otherwise) and returns its id and email. */
export async function makeUser(
  db: Db,
  role: "admin" | "ngo" | "donor" | "rider",
  opts: { verification?: "pending" | "verified" | "rejected"; email?: string; name?: string } = {},
) {
  const email = opts.email ?? uniqueEmail(role);
  const name = opts.name ?? `Test ${role} ${email.slice(0, 12)}`;
  const base = { email, password: TEST_PASSWORD };
  const id =
    role === "admin"
      ? await createAccount(db, { role, ...base })
      : role === "ngo"
        ? await createAccount(db, {
            role,
            ...base,
            profile: { name, address: "Saddar, Karachi", registrationNumber: "REG-1", contactNumber: "03001234567" },
          })
        : role === "donor"
          ? await createAccount(db, {
              role,
              ...base,
              profile: { firstName: name, lastName: "Donor", address: "Gulberg, Lahore", contactNumber: "03001234567" },
            })
          : await createAccount(db, {
              role,
              ...base,
              profile: { firstName: name, lastName: "Rider", contactNumber: "03001234567", cnic: "4210112345671" },
            });
  const verification = opts.verification ?? "verified";
  await db.update(users).set({ verification }).where(eq(users.id, id));
  return { id, email, password: TEST_PASSWORD };
}
