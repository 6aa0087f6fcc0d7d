import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface TestPgBouncer {
  /** `databaseUrl` with PgBouncer's address in place of PostgreSQL's. */
  url: string;
  stop(): void;
}

/**
 * Debian's PgBouncer (1.18 on Debian 12; `scripts/test-all.sh` installs it) in transaction mode on a free loopback
 * port, in front of the PostgreSQL of `databaseUrl`, with fewer server connections than the app's pool (so that
 * every transaction may land on another one). PgBouncer will not run as root: the machine's PostgreSQL user runs it
 * then, so its files are made readable.
 */
export async function startPgBouncer(databaseUrl: string): Promise<TestPgBouncer> {
  const direct = new URL(databaseUrl);
  const user = decodeURIComponent(direct.username);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-pgbouncer-"));
  fs.chmodSync(dir, 0o755);
  const config = path.join(dir, "pgbouncer.ini");
  const server = `host=${direct.hostname} port=${direct.port || 5432} user=${user} password=${decodeURIComponent(direct.password)}`;
  fs.writeFileSync(
    config,
    [
      "[databases]",
      `* = ${server}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      "default_pool_size = 4",
      "max_client_conn = 100",
    ].join("\n"),
  );
  fs.writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`);
  for (const f of ["pgbouncer.ini", "users.txt"]) fs.chmodSync(path.join(dir, f), 0o644);
  const binary = fs.existsSync("/usr/sbin/pgbouncer") ? "/usr/sbin/pgbouncer" : "pgbouncer";
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(asRoot ? "runuser" : binary, asRoot ? ["-u", "postgres", "--", binary, config] : [config], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let i = 0; i < 100 && !output.includes("process up") && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 50));
  if (!output.includes("process up")) {
    child.kill("SIGKILL");
    throw new Error(`PgBouncer did not start:\n${output}`);
  }
  const through = new URL(direct);
  through.host = `127.0.0.1:${port}`;
  return {
    url: through.toString(),
    stop() {
      child.kill("SIGTERM");
      void exited.then(() => fs.rmSync(dir, { recursive: true, force: true }));
    },
  };
}
