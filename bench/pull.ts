/** pull-50k in every format, against one floor: the raw SELECT of the same rows plus JSON.stringify. */
import { timedPull } from "./api.ts";
import { FORMATS, pullName } from "./names.ts";
import type { Options } from "./options.ts";
import { type Figure, makeFigure } from "./stats.ts";
import type { Target } from "./target.ts";

/** Pulls `fr` (full, its base `en` full too) in each wanted format. */
export async function benchPull(
  t: Target,
  options: Options,
  wanted: (name: string) => boolean,
  log: (message: string) => void,
): Promise<Figure[]> {
  const formats = FORMATS.filter((f) => wanted(pullName(t.store, f)));
  if (formats.length === 0) return [];
  const floors: number[] = [];
  for (let i = 0; i < options.warmups + options.runs; i++) {
    const ms = await t.floor.pull("fr");
    if (i >= options.warmups) floors.push(ms);
  }
  const figures: Figure[] = [];
  for (const format of formats) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < options.warmups + options.runs; i++) {
      const pulled = await timedPull(t.api, t.projectId, "fr", format);
      bytes = pulled.bytes;
      if (i >= options.warmups) times.push(pulled.ms);
    }
    const figure = makeFigure(pullName(t.store, format), "ms", times, floors, { details: { bytes } });
    log(
      `${figure.name}: ${figure.median.toFixed(0)} ms (${(bytes / 1e6).toFixed(1)} MB), floor ${figure.floor.toFixed(0)} ms`,
    );
    figures.push(figure);
  }
  return figures;
}
