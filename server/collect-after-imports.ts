import type { Parlance } from "../core/index.ts";

/** At most one collection per second, however many imports end in it. */
export const COLLECT_EVERY_MS = 1_000;

/**
 * Runs a full garbage collection soon after each import job ends (completed or failed), at most
 * once per `everyMs`. An import's garbage (the body's bytes, its rows, the history it wrote) is
 * tens of MiB for a 12 MB push; left to the engine it stays resident until a later collection,
 * so a server that took one large push sat 60–150 MiB above idle and the next push's peak was
 * added on top (docs/benchmarks.md, "Push memory after imports"). The price is one pause of the
 * event loop per collection, 58–104 ms measured quiet (it sweeps the import's garbage), bounded by
 * the rate (docs/decisions.md, "A full collection after imports"). Returns the function that stops
 * it (and drops a collection not yet run).
 */
export function collectAfterImports(
  parlance: Pick<Parlance, "on">,
  collect: () => void,
  everyMs: number = COLLECT_EVERY_MS,
): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    last = performance.now();
    collect();
  };
  const schedule = () => {
    if (timer !== undefined) return;
    // Never inside the emitting job's own call: the job's frames are gone by the next macrotask.
    timer = setTimeout(run, Math.max(0, last + everyMs - performance.now()));
  };
  const offCompleted = parlance.on("job.completed", schedule);
  const offFailed = parlance.on("job.failed", schedule);
  return () => {
    offCompleted();
    offFailed();
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
