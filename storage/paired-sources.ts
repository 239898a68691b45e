import { compareCodePoints } from "../core/code-point.ts";
import type { SourcedRow } from "../core/types.ts";

/**
 * `rows` with each one's `source`, the value of the same key in `base` (null when it has none):
 * both lists in ascending code-point order of key, so one pass pairs them. Two ordered scans and
 * this pass cost about two thirds of a join that probes the base language's index once per key.
 * The rows are given their `source` in place: they are the caller's own, fresh from the store.
 */
export function pairSources(rows: SourcedRow[], base: { key: string; value: string }[]): SourcedRow[] {
  const sourceOf = sourcesInOrder(base);
  for (const row of rows) row.source = sourceOf(row.key);
  return rows;
}

/**
 * The value in `base` of each key asked, or null: keys asked in ascending code-point order, `base`
 * in the same order (rows may still be added to its end before the keys they hold are asked).
 */
export function sourcesInOrder(
  base: readonly { key: string; value: string }[],
): (key: string) => string | null {
  let at = 0;
  return (key) => {
    while (at < base.length) {
      const b = base[at] as { key: string; value: string };
      if (b.key === key) {
        at++;
        return b.value;
      }
      if (compareCodePoints(b.key, key) > 0) return null;
      at++;
    }
    return null;
  };
}
