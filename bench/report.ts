/** The two report forms: one aligned line per figure, or one JSON document. */
import type { Figure } from "./stats.ts";

const num = (n: number) =>
  Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);

/** `name  median  min–max  floor  ratio`, then the target and whether it was met. */
export function textReport(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.name,
    `${num(f.median)} ${f.unit}`,
    `${num(f.min)}–${num(f.max)}`,
    `${f.unit === "req/s" ? "ceiling" : "floor"} ${num(f.floor)}`,
    `${f.ratio.toFixed(2)}×`,
    f.target === "" ? "" : `target ${f.target} ${f.met ? "met" : "MISSED"}`,
    f.failed ? `FAILED: ${f.failed}` : "",
  ]);
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) =>
          i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(i < 5 ? (widths[i] ?? 0) : 0),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export const jsonReport = (figures: readonly Figure[]): string => JSON.stringify({ figures }, null, 2);
