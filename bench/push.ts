/**
 * push-50k (new language, then 10 % changed) and the peak RSS of the server during a push. Each
 * Parlance push is followed by the same rows through the floor, so both see the same table sizes.
 */
import { pushAndWait, pushBody } from "./api.ts";
import type { DocumentSet } from "./data.ts";
import { PEAK_RSS, pushName } from "./names.ts";
import type { Options } from "./options.ts";
import { peakRssDuring, procStatusKib } from "./process.ts";
import { type Figure, makeFigure, median } from "./stats.ts";
import type { Target } from "./target.ts";

const MIB = 1024 * 1024;

export interface PushSelection {
  fresh: boolean;
  changed: boolean;
  peakRss: boolean;
}

type Log = (message: string) => void;

/**
 * Fills the base language `en` and `fr` (what the pulls and the 10 % pushes need); these two pushes
 * are also the warm-up of the push figures. Returns the server's idle RSS in KiB, read before them.
 */
export async function seed(t: Target, docs: DocumentSet, log: Log): Promise<number> {
  const idleKib = procStatusKib(t.server.pid, "VmRSS");
  const content = docs.document();
  for (const language of ["en", "fr"]) {
    const { ms } = await pushAndWait(t.api, pushBody(t.projectId, language, content));
    const floorMs = await t.floor.push(content, language);
    log(`${t.store} seed push ${language}: ${ms.toFixed(0)} ms (floor ${floorMs.toFixed(0)} ms)`);
  }
  return idleKib;
}

export async function benchPush(
  t: Target,
  docs: DocumentSet,
  options: Options,
  want: PushSelection,
  idleKib: number,
  log: Log,
  verbose: Log,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const payloadMib = Buffer.byteLength(docs.document()) / MIB;

  if (want.fresh || want.peakRss) {
    const content = docs.document();
    const times: number[] = [];
    const accepts: number[] = [];
    const floors: number[] = [];
    const peaksKib: number[] = [];
    for (const language of t.freshLanguages.slice(0, options.runs)) {
      const body = pushBody(t.projectId, language, content);
      let ms = 0;
      const peak = await peakRssDuring(t.server.pid, async () => {
        const timing = await pushAndWait(t.api, body);
        ms = timing.ms;
        accepts.push(timing.acceptMs);
      });
      times.push(ms);
      peaksKib.push(peak);
      floors.push(await t.floor.push(content, language));
      log(
        `${pushName(t.store, "new")} ${language}: ${ms.toFixed(0)} ms, floor ${floors.at(-1)?.toFixed(0)} ms`,
      );
    }
    verbose(`${t.store} push new: accepted (202) after a median ${median(accepts).toFixed(0)} ms`);
    if (want.fresh) figures.push(makeFigure(pushName(t.store, "new"), "ms", times, floors));
    if (want.peakRss) {
      const above = peaksKib.map((kib) => (kib - idleKib) / 1024);
      figures.push(
        makeFigure(PEAK_RSS, "MiB", above, [payloadMib], {
          details: {
            idleMiB: Math.round((idleKib / 1024) * 10) / 10,
            peakMiB: Math.round((Math.max(...peaksKib) / 1024) * 10) / 10,
            payloadMiB: Math.round(payloadMib * 100) / 100,
          },
        }),
      );
    }
  }

  if (want.changed) {
    const times: number[] = [];
    const accepts: number[] = [];
    const floors: number[] = [];
    for (let round = 1; round <= options.warmups + options.runs; round++) {
      const content = docs.revisedDocument(round);
      const timing = await pushAndWait(t.api, pushBody(t.projectId, "fr", content));
      const floorMs = await t.floor.push(content, "fr");
      const warm = round <= options.warmups;
      log(
        `${pushName(t.store, "10pct")} round ${round}${warm ? " (warm-up)" : ""}: ${timing.ms.toFixed(0)} ms, floor ${floorMs.toFixed(0)} ms`,
      );
      if (warm) continue;
      times.push(timing.ms);
      accepts.push(timing.acceptMs);
      floors.push(floorMs);
    }
    verbose(`${t.store} push 10%: accepted (202) after a median ${median(accepts).toFixed(0)} ms`);
    figures.push(makeFigure(pushName(t.store, "10pct"), "ms", times, floors));
  }
  return figures;
}
