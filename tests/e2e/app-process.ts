import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

/** One production server (`node build/node/server.js`, as `npm start` runs it) as a child process of a test. */
export interface AppProcess {
  proc: ChildProcess;
  port: number;
  /** Everything it printed so far (its JSON log lines among them). */
  output(): string;
  /** Its exit code, once it exits. */
  exited: Promise<number | null>;
}

/**
 * Starts the compiled server on 127.0.0.1:`port` with `env` on top of the production settings and resolves once it
 * listens; the caller stops it (`stopAll`). Without DATABASE_URL in `env` it runs on the embedded database in DATA_DIR.
 */
export async function startAppProcess(
  port: number,
  env: Record<string, string>,
  /** A first start on a new embedded database with demo data takes longer (initdb, then the seed). */
  startTimeoutMs = 60_000,
): Promise<AppProcess> {
  const buildDir = process.env.BUILD_DIR ?? "build";
  const proc = spawn(process.execPath, ["--enable-source-maps", `${buildDir}/node/server.js`], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      // What `npm start` sets (package.json; decisions 014 and 045).
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: "131072",
      NODE_OPTIONS: "--max-semi-space-size=16 --max-old-space-size=512",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      BUILD_DIR: buildDir,
      LOG_LEVEL: "info",
      MAP_TILE_URL: "http://127.0.0.1:9/{z}/{x}/{y}.png",
      DATABASE_URL: "",
      SMTP_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  proc.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const app: AppProcess = { proc, port, output: () => output, exited };
  running.add(app);
  void exited.then(() => running.delete(app));
  const deadline = Date.now() + startTimeoutMs;
  while (!output.includes("Ek Chhat is running")) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`the server on port ${port} did not start:\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return app;
}

const running = new Set<AppProcess>();

/** Kills every server the test started that is still running. */
export function stopAll(): void {
  for (const app of running) app.proc.kill("SIGKILL");
}

/** Whether a new connection to the port is refused. */
export function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("connect", () => (socket.destroy(), resolve(false)));
    socket.on("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });
}
