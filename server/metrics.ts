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
   * Jobs waiting, by queue name: the one place a job queue plugs in (issue 17's queue). Without it there is no
   * `queue_depth` metric at all.
   */
  queueDepth?: () => Promise<Record<string, number>>;
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

  const { poolUsage, queueDepth } = sources;
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
  if (queueDepth) {
    new Gauge({
      name: "queue_depth",
      help: "Jobs waiting to run, by queue.",
      labelNames: ["queue"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const [queue, depth] of Object.entries(await queueDepth())) this.set({ queue }, depth);
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
