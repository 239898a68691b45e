/** Medians, ranges and the figure record both report forms print. */
import { TARGETS } from "./names.ts";

export type Unit = "ms" | "req/s" | "MiB";

export interface Figure {
  name: string;
  median: number;
  min: number;
  max: number;
  unit: Unit;
  /** The floor (times, memory) or the ceiling (req/s) measured in the same run. */
  floor: number;
  /** median ÷ floor; for req/s, median ÷ ceiling. */
  ratio: number;
  /** The target, e.g. "<= 1.5" or ">= 0.5", and whether this run met it. */
  target: string;
  met: boolean;
  runs: number;
  /** Figure-specific evidence (request counts, non-2xx responses, idle memory…). */
  details?: Record<string, number>;
  /** Set when the measurement is not to be trusted (e.g. too many non-2xx responses). */
  failed?: string;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const round = (n: number, digits = 3) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export function makeFigure(
  name: string,
  unit: Unit,
  samples: readonly number[],
  floorSamples: readonly number[],
  extra: { details?: Record<string, number>; failed?: string } = {},
): Figure {
  const med = median(samples);
  const floor = median(floorSamples);
  const ratio = med / floor;
  const target = TARGETS[name] ?? {};
  const met =
    (target.max === undefined || ratio <= target.max) && (target.min === undefined || ratio >= target.min);
  const figure: Figure = {
    name,
    median: round(med),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    unit,
    floor: round(floor),
    ratio: round(ratio),
    target:
      target.max !== undefined ? `<= ${target.max}` : target.min !== undefined ? `>= ${target.min}` : "",
    met: met && extra.failed === undefined,
    runs: samples.length,
  };
  if (extra.details) figure.details = extra.details;
  if (extra.failed) figure.failed = extra.failed;
  return figure;
}

/** Milliseconds since `start` (performance.now()). */
export const since = (start: number) => performance.now() - start;
