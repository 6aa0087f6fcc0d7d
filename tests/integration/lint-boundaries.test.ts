import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * The layer boundaries of decision 019 are lint rules; these checks make sure the rules still catch what they
 * are for, so a change to eslint.config.js cannot silently switch a boundary off.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("layer boundaries (npm run lint)", () => {
  it.each([
    [
      "a server file importing app/",
      "server/domain/example.ts",
      'import { x } from "#app/lib/http.server.ts";\nexport const y = x;\n',
      /server\/ may not import app\//,
    ],
    [
      "a component importing server/",
      "app/components/example.tsx",
      'import type { Services } from "#server/services.ts";\nexport type S = Services;\n',
      /Components may not import server\//,
    ],
    [
      "a shared module importing app/",
      "shared/example.ts",
      'import { x } from "#app/lib/navigation.ts";\nexport const y = x;\n',
      /shared\/ .*may not import app\//,
    ],
    [
      "a shared module importing server/",
      "shared/example.ts",
      'import { x } from "#server/db/query.ts";\nexport const y = x;\n',
      /shared\/ may not import server\//,
    ],
    [
      "a shared module importing a node: module",
      "shared/example.ts",
      'import { randomUUID } from "node:crypto";\nexport const y = randomUUID;\n',
      /no node: modules/,
    ],
    [
      "a relative import out of the folder",
      "app/routes/example.tsx",
      'import { x } from "../lib/navigation.ts";\nexport const y = x;\n',
      /\.\.\/ is not used/,
    ],
    ["the old ~/ alias", "app/routes/example.tsx", 'import { x } from "~/lib/navigation";\nexport const y = x;\n', /~\/ alias is gone/],
  ])("refuses %s", async (_name, filePath, code, message) => {
    const errors = await importErrors(filePath, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  it.each([
    [
      "a route module calling the domain",
      "app/routes/example.tsx",
      'import { x } from "#server/db/query.ts";\nimport { y } from "#shared/constants.ts";\nexport const z = [x, y];\n',
    ],
    [
      "a loader helper beside components",
      "app/components/example/list.server.ts",
      'import { x } from "#server/db/query.ts";\nexport const y = x;\n',
    ],
    [
      "a server file using shared/ and a sibling",
      "server/domain/example.ts",
      'import { x } from "#shared/constants.ts";\nimport { y } from "./errors.ts";\nexport const z = [x, y];\n',
    ],
  ])("allows %s", async (_name, filePath, code) => {
    expect(await importErrors(filePath, code)).toEqual([]);
  });
});
