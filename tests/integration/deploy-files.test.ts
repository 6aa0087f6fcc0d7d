import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { selfSignedPem } from "#tests/helpers/tls.ts";

/**
 * The balancer's configuration the deployment ships (deploy/haproxy.cfg, docs/deployment.md) is one HAProxy accepts.
 * The balancer test (tests/e2e/balancer.spec.ts) runs its own configuration on loopback with the rules it reads from
 * this file; this checks the whole file, with a certificate made for the check and the compose file's server names
 * (`app1`, `app2`, not resolvable here) put on loopback. Where `scripts/test-all.sh` has installed the test
 * machine's packages (the PostgreSQL run), HAProxy is there.
 */
const fullMachine = process.env.TEST_DB === "postgres";

describe.runIf(fullMachine)("deploy/haproxy.cfg", () => {
  it("is a configuration Debian's HAProxy accepts", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-deploy-"));
    const pem = selfSignedPem(dir, "localhost");
    const shipped = fs.readFileSync(new URL("../../deploy/haproxy.cfg", import.meta.url), "utf8");
    const config = shipped
      .replace("/etc/haproxy/tls/site.pem", pem)
      .replace(/\bapp1:3000\b/, "127.0.0.1:3000")
      .replace(/\bapp2:3000\b/, "127.0.0.1:3001");
    expect(config).not.toBe(shipped);
    fs.writeFileSync(path.join(dir, "haproxy.cfg"), config);
    const binary = fs.existsSync("/usr/sbin/haproxy") ? "/usr/sbin/haproxy" : "haproxy";
    const check = spawnSync(binary, ["-c", "-f", path.join(dir, "haproxy.cfg")], { encoding: "utf8" });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    expect(`${check.stdout}${check.stderr}`).not.toMatch(/\[(ALERT|WARNING)\]/);
  });
});
