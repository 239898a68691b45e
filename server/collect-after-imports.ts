import type { Parlance } from "../core/index.ts";

/** At most one collection per second, however many imports end in it. */
export const COLLECT_EVERY_MS = 1_000;
/** How often a collection waiting for light traffic looks again. */
export const QUIET_LOOK_EVERY_MS = 25;
/** A collection not run within this long of its import is dropped: the engine's own collector runs under traffic. */
export const QUIET_WAIT_MS = 10_000;
/**
 * An import that wrote at least this many rows collects without waiting out `everyMs`: its garbage
 * is tens of MiB, and the import itself took hundreds of milliseconds, which spaces such
 * collections already. Held back a second, it ran inside the next large push when pushes came back
 * to back, and that push's peak sat on the last one's garbage (docs/benchmarks.md, "Push memory
 * between pushes, twelfth pass").
 */
export const LARGE_IMPORT_ROWS = 20_000;

export interface CollectOptions {
  /** Default COLLECT_EVERY_MS. */
  everyMs?: number;
  /**
   * Whether traffic is light enough for a pause now (server/traffic.ts); while it says no, the
   * collection waits, at most QUIET_WAIT_MS. Default: always.
   */
  quiet?: () => boolean;
  /** Default QUIET_WAIT_MS. */
  quietWaitMs?: number;
  /** Default LARGE_IMPORT_ROWS. */
  largeImportRows?: number;
  /**
   * When the latest full collection run elsewhere ended (`performance.now()`), such as the one at a
   * large push's answer: a collection waiting for its turn is dropped once one ran after the last
   * import ended, since that one freed the same garbage. Default: none runs elsewhere.
   */
  collectedElsewhereAt?: () => number;
}

/**
 * Runs a full garbage collection soon after each import job ends (completed or failed), at most
 * once per `everyMs`, while traffic is light. An import's garbage (the body's bytes, its rows, the
 * history it wrote) is tens of MiB for a 12 MB push; left to the engine it stays resident until a
 * later collection, so a server that took one large push sat 60–150 MiB above idle and the next
 * push's peak was added on top (docs/benchmarks.md, "Push memory after imports"). The price is one
 * pause of the event loop per collection, 58–104 ms measured quiet, which every request waiting
 * then shares: under a load of small requests it set their p99 (docs/benchmarks.md, "Pushes off
 * the event loop"). So it waits until `quiet` says traffic is light; under steady heavy traffic it
 * is dropped, and the engine's own collector, which that traffic's allocations drive, frees the
 * garbage instead (docs/decisions.md, "A full collection after imports"). A large import's
 * collection does not wait out `everyMs`, and a collection still waiting is dropped once a full
 * collection elsewhere (a push's answer) ran after the last import ended. Returns the function
 * that stops it (and drops a collection not yet run).
 */
export function collectAfterImports(
  parlance: Pick<Parlance, "on">,
  collect: () => void,
  options: CollectOptions = {},
): () => void {
  const everyMs = options.everyMs ?? COLLECT_EVERY_MS;
  const quiet = options.quiet ?? (() => true);
  const quietWaitMs = options.quietWaitMs ?? QUIET_WAIT_MS;
  const largeImportRows = options.largeImportRows ?? LARGE_IMPORT_ROWS;
  const collectedElsewhereAt = options.collectedElsewhereAt ?? (() => Number.NEGATIVE_INFINITY);
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let giveUpAt = 0;
  let endedAt = 0;
  const run = () => {
    if (collectedElsewhereAt() >= endedAt) {
      // The next push's own collection came first: running this one too would only pause it.
      timer = undefined;
      return;
    }
    if (!quiet()) {
      timer = performance.now() < giveUpAt ? setTimeout(run, QUIET_LOOK_EVERY_MS) : undefined;
      return;
    }
    timer = undefined;
    last = performance.now();
    collect();
  };
  const schedule = (large: boolean) => {
    endedAt = performance.now();
    giveUpAt = endedAt + quietWaitMs;
    const wait = large ? 0 : Math.max(0, last + everyMs - performance.now());
    if (timer !== undefined) {
      if (!large) return;
      // A collection waiting out the interval runs now instead.
      clearTimeout(timer);
    }
    // Never inside the emitting job's own call: the job's frames are gone by the next macrotask.
    timer = setTimeout(run, wait);
  };
  const offCompleted = parlance.on("job.completed", ({ summary }) =>
    schedule(summary.created + summary.updated + (summary.deleted ?? 0) >= largeImportRows),
  );
  const offFailed = parlance.on("job.failed", () => schedule(false));
  return () => {
    offCompleted();
    offFailed();
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
