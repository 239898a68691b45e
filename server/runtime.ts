import { runtimeHasher } from "../adapters/hasher.ts";
import { createPQueueJobQueue } from "../adapters/p-queue-job-queue.ts";
import { createPasswordHasher } from "../adapters/password-hasher.ts";
import { systemClock } from "../adapters/system-clock.ts";
import { type Clock, createParlance, type Logger, type Parlance } from "../core/index.ts";
import { collectAfterImports, QUIET_LOOK_EVERY_MS } from "./collect-after-imports.ts";
import type { Config } from "./config.ts";
import type { Host } from "./host.ts";
import { openStore, type StoreOptions } from "./open-store.ts";
import { COLLECT_AFTER_BODY_BYTES } from "./push-body.ts";
import { createTraffic, type Traffic } from "./traffic.ts";

/**
 * Traffic under which a collection's pause (60–100 ms) is taken: fewer than QUIET_REQUESTS in the
 * last QUIET_MS (600 a second), so it holds a few requests, not every connection of a busy server
 * (server/collect-after-imports.ts). Four clients polling their jobs every 10 ms stay below (about
 * 400 a second); a server loaded with small GETs (900–4,000 a second on the bench's machine) above.
 */
export const QUIET_MS = 200;
export const QUIET_REQUESTS = 120;

/** A Parlance wired to the store PARLANCE_DATABASE_URL names, and how to shut it down. */
export interface Runtime {
  parlance: Parlance;
  /** Where the server notes each request, so that collections wait for lighter traffic. */
  traffic: Traffic;
  /**
   * `collect` (a full collection the host runs outside the runtime, such as at a push's answer),
   * noted so that the collection after imports does not run the same one again.
   */
  noted(collect: () => void): () => void;
  /** Stops the job runner (running job finishes), flushes counters, closes the store. */
  close(): Promise<void>;
}

export async function openRuntime(
  config: Config,
  log: Logger,
  host: Pick<
    Host,
    "openSqlite" | "walCheckpointer" | "importThread" | "collectGarbage" | "collectYoung" | "returnFreeMemory"
  >,
  clock: Clock = systemClock,
  storeOptions: StoreOptions = {},
): Promise<Runtime> {
  // One rate for the import's checks (core) and its commit (storage), which follow each other.
  const collectYoung = host.collectYoung && atMostEvery(YOUNG_COLLECTION_EVERY_MS, host.collectYoung);
  const store = await openStore(config.databaseUrl, clock, host.openSqlite, {
    walCheckpointer: host.walCheckpointer,
    importThread: host.importThread,
    collectYoung,
    ...storeOptions,
  });
  const traffic = createTraffic();
  let collectedAt = Number.NEGATIVE_INFINITY;
  const noted = (collect: () => void) => () => {
    collect();
    collectedAt = performance.now();
  };
  const collectGarbage = host.collectGarbage;
  const quiet = () => traffic.arrivedFewerThan(QUIET_REQUESTS, QUIET_MS);
  const returnBody = host.returnFreeMemory && noted(host.returnFreeMemory);
  const queue = createPQueueJobQueue((e) => log("error", "background task failed", { error: String(e) }));
  const parlance = createParlance(
    {
      storage: store.storage,
      queue,
      clock,
      rateLimiter: store.rateLimiter,
      hasher: runtimeHasher,
      passwords: createPasswordHasher(),
    },
    {
      anonRateLimit: config.anonRateLimit,
      jobLeaseMs: config.jobLeaseMs,
      jobMaxAttempts: config.jobMaxAttempts,
      maxQueuedJobs: config.maxQueuedJobs,
      log,
      betweenImportSlices: collectYoung,
      // Paced by the bytes read, not at the clock's rate: on a fast machine 12 MB was read in a few
      // 8 ms slices and collected once or twice (docs/benchmarks.md, "Push memory, thirteenth pass").
      // Not limited by the 32 ms rate nor by traffic: about 1 ms each, 7 or 8 for a 12 MB push and
      // none for one under 1.5 MB, so concurrent large pushes add theirs, and small ones none.
      whileReadingContent: host.collectYoung,
      // The listener's buffers for a large body (about 13 MiB for 12 MB) are freed once it is read
      // but stay resident until a full collection returns them: at a point of the reading that
      // varied from push to push, or after it, on top of its peak (docs/benchmarks.md, "Push
      // memory, thirteenth pass"). Returned before the reading instead, under light traffic only
      // as at the push's answer (server/serve.ts), and only for a push whose checks passed.
      beforeReadingContent:
        returnBody &&
        ((bytes) => {
          if (bytes >= COLLECT_AFTER_BODY_BYTES && quiet()) returnBody();
        }),
      // Under light traffic only, as the collections at a push's answer and after imports: the
      // pause (25–35 ms here) would otherwise fall on the small requests' p99.
      duringLargeChecks:
        collectGarbage &&
        (() => {
          if (quiet()) collectGarbage();
        }),
    },
  );
  const stopCollecting = host.collectGarbage
    ? collectAfterImports(parlance, host.collectGarbage, {
        quiet: () => traffic.lighterThan(QUIET_REQUESTS, QUIET_MS, QUIET_LOOK_EVERY_MS),
        collectedElsewhereAt: () => collectedAt,
      })
    : () => {};
  return {
    parlance,
    traffic,
    noted,
    async close() {
      stopCollecting();
      await parlance.close();
      await store.close();
    },
  };
}

/**
 * An import's commit gives the event loop a turn every 8 ms; a young collection costs about a
 * millisecond there, so one every 32 ms keeps most of the saving (docs/benchmarks.md, "Push
 * memory, fifth pass") for a quarter of the cost.
 */
const YOUNG_COLLECTION_EVERY_MS = 32;

/** `run`, skipped when it ran less than `ms` ago. */
function atMostEvery(ms: number, run: () => void): () => void {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const now = performance.now();
    if (now - last < ms) return;
    last = now;
    run();
  };
}
