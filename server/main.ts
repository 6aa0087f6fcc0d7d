import http from "node:http";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "#server/db/client.ts";
import { DatabaseLockedError } from "#server/db/lock.ts";
import { createApp } from "#server/http/app.ts";
import { createLogger } from "./log.ts";
import { createMailDelivery, createMailer } from "#server/mail/mailer.ts";
import { openQueue } from "#server/jobs/queue.ts";
import { startWorkers } from "#server/jobs/workers.ts";
import { readyMessage, startUp } from "./start-up.ts";
import { createGeocoder } from "#server/domain/places/geocoder.ts";
import { openStorage } from "#server/storage/open.ts";
import { createMetrics } from "./metrics.ts";
import { drainServer } from "#server/http/drain.ts";
import type { Lifecycle } from "#server/http/health.ts";
import type { Services } from "./services.ts";

async function main() {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    migrationUrl: config.DATABASE_MIGRATION_URL,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    dataDir: config.dataDir,
    onIdleError: (err) => log.warn({ err }, "database connection lost; the pool reconnects"),
    onNamedStatementsNotKept: (err) =>
      log.error(
        { err },
        "the database connections do not keep named prepared statements (a PgBouncer before 1.21 in transaction mode?): every statement now goes unnamed; set DATABASE_PREPARED_STATEMENTS=unnamed to start that way (docs/deployment.md)",
      ),
  });
  // Mail, the upkeep round: jobs on the database's queue (decision 042). queue.counts() feeds the metrics' queue gauges.
  const queue = await openQueue(database, log, { mailAttempts: config.MAIL_ATTEMPTS, mailRetrySeconds: config.MAIL_RETRY_SECONDS });
  const smtp = config.SMTP_URL ? createMailDelivery({ log, from: config.MAIL_FROM, smtpUrl: config.SMTP_URL }) : null;
  const services: Services = {
    config,
    db: database.db,
    log,
    mailer: createMailer({ log, queue: smtp ? queue : undefined }),
    jobs: queue,
    storage: await openStorage(config),
    geocoder: createGeocoder(config, log),
  };
  const { demoAccounts } = await startUp(services);
  // Queued mail, and orphan files, expired sessions and the like: now, then hourly; errors are logged, never thrown.
  const workers = await startWorkers(services, queue, smtp);

  // Measured only when someone may read them (METRICS_TOKEN).
  const metrics = config.METRICS_TOKEN ? createMetrics({ poolUsage: database.poolUsage, queueJobs: () => queue.counts() }) : undefined;

  const lifecycle: Lifecycle = { draining: false };

  const production = config.NODE_ENV === "production";
  let listener: http.RequestListener;
  if (production) {
    const buildPath = path.resolve(config.BUILD_DIR, "server/index.js");
    const build = (await import(buildPath)) as ServerBuild;
    const app = createApp({
      services,
      build,
      clientDir: path.relative(process.cwd(), path.resolve(config.BUILD_DIR, "client")),
      mode: "production",
      lifecycle,
      metrics,
    });
    listener = getRequestListener(app.fetch);
  } else {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true }, appType: "custom" });
    const build = () => devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
    const app = createApp({ services, build, mode: "development", lifecycle, metrics });
    const honoListener = getRequestListener(app.fetch);
    listener = (req, res) => devServer.middlewares(req, res, () => honoListener(req, res));
  }

  const server = http.createServer(listener);
  server.listen(config.PORT, config.HOST, () => {
    log.info({ url: `http://${config.HOST}:${config.PORT}`, database: database.kind, storage: config.STORAGE }, "Ek Chhat is running");
    // After the log line is written (pino writes asynchronously), so the ready message is the last thing printed.
    log.flush(() => console.log(readyMessage(config, demoAccounts)));
  });

  // SIGTERM drains (decision 043): /readyz turns 503 and every answer says `Connection: close`; after
  // DRAIN_DELAY_SECONDS, in which a balancer sees the server is not ready and stops sending it requests, no new
  // connections; the requests in flight finish (for up to SHUTDOWN_TIMEOUT_SECONDS), then the background work stops and
  // the database closes, one after the other. Ctrl+C (SIGINT) skips the delay: a person at a terminal, no balancer.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    lifecycle.draining = true;
    const delaySeconds = signal === "SIGTERM" ? config.DRAIN_DELAY_SECONDS : 0;
    if (delaySeconds > 0) log.info({ signal, delaySeconds }, "draining: not ready, still answering until the balancer has seen it");
    let exitCode = 0;
    void new Promise((resolve) => setTimeout(resolve, delaySeconds * 1000))
      .then(() => {
        log.info({ signal }, "draining: no new connections, waiting for the requests in flight");
        return drainServer(server, config.SHUTDOWN_TIMEOUT_SECONDS * 1000);
      })
      .then(async (drained) => {
        if (!drained) {
          exitCode = 1;
          log.warn({ timeoutSeconds: config.SHUTDOWN_TIMEOUT_SECONDS }, "requests still in flight were cut off at the shutdown timeout");
        }
        await workers.stop();
        await database.close();
        log.info("stopped");
      })
      .catch((err: unknown) => {
        exitCode = 1;
        log.error({ err }, "the shutdown failed");
      })
      .finally(() => log.flush(() => process.exit(exitCode)));
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DatabaseLockedError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
