import type { Paged } from "../core/records/types.ts";

/** A page from `limit + 1` rows fetched newest first: the cursor is the last kept row's sequence. */
export function paged<T>(rows: { seq: number; item: T }[], limit: number): Paged<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { items: kept.map((r) => r.item), next: more && last ? String(last.seq) : null };
}
