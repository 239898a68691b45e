/**
 * pull-50k in every format, against one floor: the raw SELECT of the same rows plus JSON.stringify;
 * and pull-304-50k, a conditional GET whose tag still matches, against an absolute target.
 */
import { timedPull } from "./api.ts";
import { FORMATS, PULL_304_TARGET_MS, pull304Name, pullName } from "./names.ts";
import type { Options } from "./options.ts";
import { costOf } from "./process-cost.ts";
import { type Figure, makeFigure, median, since } from "./stats.ts";
import type { Target } from "./target.ts";

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Conditional GETs timed for the 304 figure: each costs a few milliseconds. */
const CONDITIONAL_RUNS = 30;

/** Pulls `fr` (full, its base `en` full too) in each wanted format. */
export async function benchPull(
  t: Target,
  options: Options,
  wanted: (name: string) => boolean,
  log: (message: string) => void,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const format of FORMATS.filter((f) => wanted(pullName(t.store, f)))) {
    // The floor runs right before each pull, so both see the same load: other processes share the
    // machine, and a floor measured minutes earlier compares with nothing.
    const times: number[] = [];
    const floors: number[] = [];
    const cpus: number[] = [];
    const faults: number[] = [];
    let bytes = 0;
    for (let i = 0; i < options.warmups + options.runs; i++) {
      const floor = await t.floor.pull("fr");
      const { result: pulled, cost } = await costOf(t.server.pid, () =>
        timedPull(t.api, t.projectId, "fr", format),
      );
      bytes = pulled.bytes;
      if (i < options.warmups) continue;
      floors.push(floor);
      times.push(pulled.ms);
      if (cost) {
        cpus.push(cost.mainCpuMs);
        faults.push(cost.faults);
      }
    }
    // The server's side of each pull, where /proc tells it: steadier than the time (process-cost.ts).
    const cost: Record<string, number> =
      cpus.length > 0 ? { serverMainCpuMs: round1(median(cpus)), serverFaults: median(faults) } : {};
    const figure = makeFigure(pullName(t.store, format), "ms", times, floors, {
      details: { bytes, ...cost },
    });
    const costNote =
      cpus.length > 0
        ? `; server main thread ${round1(median(cpus))} ms CPU, ${median(faults)} pages faulted`
        : "";
    log(
      `${figure.name}: ${figure.median.toFixed(0)} ms (${(bytes / 1e6).toFixed(1)} MB), floor ${figure.floor.toFixed(0)} ms${costNote}`,
    );
    figures.push(figure);
  }
  if (wanted(pull304Name(t.store))) figures.push(await benchNotModified(t, options, log));
  return figures;
}

/** The XLIFF (the largest file, two languages read) asked again with the tag its last pull gave. */
async function benchNotModified(
  t: Target,
  options: Options,
  log: (message: string) => void,
): Promise<Figure> {
  const path = `/api/v1/pull?project_id=${t.projectId}&language=fr&format=xliff`;
  const first = await t.api.fetch("GET", path);
  const etag = first.headers.get("etag");
  await first.arrayBuffer();
  if (first.status !== 200 || !etag) throw new Error(`pull xliff answered ${first.status} without an ETag`);
  const times: number[] = [];
  const runs = options.smoke ? options.runs : CONDITIONAL_RUNS;
  for (let i = 0; i < options.warmups + runs; i++) {
    const start = performance.now();
    const res = await t.api.fetch("GET", path, undefined, { "if-none-match": etag });
    await res.arrayBuffer();
    const ms = since(start);
    if (res.status !== 304) throw new Error(`a conditional pull with the current tag answered ${res.status}`);
    if (i >= options.warmups) times.push(ms);
  }
  const figure = makeFigure(pull304Name(t.store), "ms", times, [PULL_304_TARGET_MS]);
  log(`${figure.name}: ${figure.median.toFixed(2)} ms (target ${PULL_304_TARGET_MS} ms)`);
  return figure;
}
