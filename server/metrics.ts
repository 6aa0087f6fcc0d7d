import { Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** The pg pool's connections at this moment. */
export interface PoolUsage {
  total: number;
  idle: number;
  waiting: number;
}

/** What the metrics read when they are scraped; each is optional, and a missing one is left out, never faked. */
export interface MetricsSources {
  /** The PostgreSQL pool (server/db/client.ts); the embedded database has one in-process connection and none. */
  poolUsage?: () => PoolUsage;
  /**
   * The job queue's jobs by queue and state (server/jobs/queue.ts, `counts`), read once per scrape: the one place the
   * queue plugs in. Without it there is no `queue_jobs` or `queue_depth` metric at all.
   */
  queueJobs?: () => Promise<{ queue: string; state: string; jobs: number }[]>;
}

export interface RequestLabels {
  method: string;
  /** The route's pattern (`/campaign/:slug`), never the address asked for: the label's values stay few. */
  route: string;
  status: number;
}

export interface Metrics {
  registry: Registry;
  observeRequest(labels: RequestLabels, seconds: number): void;
}

/** Methods named as they are; anything else (a scanner's made-up verb) is one value, so labels stay bounded. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Seconds, from a cached asset (a millisecond) to a slow page or export. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's metrics in their own registry (decision 043): request latency by method, route pattern and status
 * class (its `_count` is the request rate), the database pool, the queue's depth when a queue is plugged in, and
 * Node's own process metrics.
 */
export function createMetrics(sources: MetricsSources = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its answer's head, by method, route pattern and status class.",
    labelNames: ["method", "route", "status_class"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const { poolUsage, queueJobs } = sources;
  if (poolUsage) {
    new Gauge({
      name: "db_pool_connections",
      help: "Connections of the PostgreSQL pool: total open, idle, and requests waiting for one.",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        const usage = poolUsage();
        this.set({ state: "total" }, usage.total);
        this.set({ state: "idle" }, usage.idle);
        this.set({ state: "waiting" }, usage.waiting);
      },
    });
  }
  if (queueJobs) {
    new Gauge({
      name: "queue_jobs",
      help: "Jobs of each queue by state: created (waiting for a first try), retry (waiting for another), active (being tried), failed (every try failed; kept 12 hours). A queue's dead letters are the jobs of its -dead queue.",
      labelNames: ["queue", "state"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const { queue, state, jobs } of await queueJobs()) this.set({ queue, state }, jobs);
      },
    });
    new Gauge({
      name: "queue_depth",
      help: "Jobs waiting to run (created or waiting for a retry), by queue.",
      labelNames: ["queue"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const depth = new Map<string, number>();
        for (const { queue, state, jobs } of await queueJobs()) {
          depth.set(queue, (depth.get(queue) ?? 0) + (state === "created" || state === "retry" ? jobs : 0));
        }
        for (const [queue, jobs] of depth) this.set({ queue }, jobs);
      },
    });
  }

  return {
    registry,
    observeRequest({ method, route, status }, seconds) {
      latency.observe(
        { method: KNOWN_METHODS.has(method) ? method : "other", route, status_class: `${Math.floor(status / 100)}xx` },
        seconds,
      );
    },
  };
}
