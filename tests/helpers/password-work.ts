import type * as Passwords from "#server/domain/accounts/passwords.ts";

/** How many times the expensive password work (argon2 hash or verify) ran, to show what the limiters let through. */
export const passwordWork = { hash: 0, verify: 0 };

/**
 * The passwords module with its hash and verify counted in `passwordWork`. Use as
 * `vi.mock("#server/domain/accounts/passwords.ts", async (original) => (await import("#tests/helpers/password-work.ts")).countingPasswords(original))`.
 */
export async function countingPasswords(importOriginal: <T>() => Promise<T>): Promise<typeof Passwords> {
  const mod = await importOriginal<typeof Passwords>();
  return {
    ...mod,
    hashPassword: async (p: string) => {
      passwordWork.hash += 1;
      return mod.hashPassword(p);
    },
    verifyPassword: async (h: string, p: string) => {
      passwordWork.verify += 1;
      return mod.verifyPassword(h, p);
    },
  };
}
