import { compareCodePoints } from "../core/code-point.ts";
import type { SourcedRow } from "../core/types.ts";

/**
 * `rows` with each one's `source`, the value of the same key in `base` (null when it has none):
 * both lists in ascending code-point order of key, so one pass pairs them. Two ordered scans and
 * this pass cost about two thirds of a join that probes the base language's index once per key.
 * The rows are given their `source` in place: they are the caller's own, fresh from the store.
 */
export function pairSources(
  rows: SourcedRow[],
  base: readonly { key: string; value: string }[],
): SourcedRow[] {
  let at = 0;
  for (const row of rows) {
    let source: string | null = null;
    while (at < base.length) {
      const b = base[at] as { key: string; value: string };
      if (b.key === row.key) {
        source = b.value;
        at++;
        break;
      }
      if (compareCodePoints(b.key, row.key) > 0) break;
      at++;
    }
    row.source = source;
  }
  return rows;
}
