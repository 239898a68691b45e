/**
 * peak-rss-push-4x12mb: four 12 MB pushes arriving at once, each into an empty language. The
 * server's peak RSS until all four jobs completed, above its idle RSS, against the four payloads.
 */
import { pushAndWait, pushBody } from "./api.ts";
import type { DocumentSet } from "./data.ts";
import { PEAK_RSS_4X } from "./names.ts";
import type { Options } from "./options.ts";
import { peakRssDuring } from "./process.ts";
import { type Figure, makeFigure, median } from "./stats.ts";
import type { Target } from "./target.ts";

const MIB = 1024 * 1024;
/** Pushes sent together in each run. */
export const AT_ONCE = 4;

export async function benchConcurrentPush(
  t: Target,
  docs: DocumentSet,
  options: Options,
  languages: string[],
  idleKib: number,
  log: (message: string) => void,
): Promise<Figure> {
  const content = docs.document();
  const payloadMib = (AT_ONCE * Buffer.byteLength(content)) / MIB;
  const peaksKib: number[] = [];
  const accepts: number[] = [];
  for (let run = 0; run < options.runs; run++) {
    const bodies = languages
      .slice(run * AT_ONCE, (run + 1) * AT_ONCE)
      .map((language) => pushBody(t.projectId, language, content));
    const peak = await peakRssDuring(t.server.pid, async () => {
      const timings = await Promise.all(bodies.map((body) => pushAndWait(t.api, body)));
      accepts.push(...timings.map((x) => x.acceptMs));
    });
    peaksKib.push(peak);
    log(`${PEAK_RSS_4X} run ${run + 1}: peak ${(peak / 1024).toFixed(0)} MiB`);
  }
  return makeFigure(
    PEAK_RSS_4X,
    "MiB",
    peaksKib.map((kib) => (kib - idleKib) / 1024),
    [payloadMib],
    {
      details: {
        idleMiB: Math.round((idleKib / 1024) * 10) / 10,
        peakMiB: Math.round((Math.max(...peaksKib) / 1024) * 10) / 10,
        payloadMiB: Math.round(payloadMib * 100) / 100,
        medianAcceptMs: Math.round(median(accepts)),
      },
    },
  );
}
