import type { BrowseQuery, BrowseRow, RecordState } from "../core/records/types.ts";

/** The page's rows: each key with its base record and one entry (or null) per chosen language. */
export function browseRows(keys: string[], records: RecordState[], q: BrowseQuery): BrowseRow[] {
  const byKey = new Map<string, Map<string, RecordState>>();
  for (const rec of records) {
    const m = byKey.get(rec.key) ?? new Map<string, RecordState>();
    m.set(rec.language, rec);
    byKey.set(rec.key, m);
  }
  return keys.map((key) => {
    const m = byKey.get(key);
    const row: BrowseRow = { key, base: m?.get(q.baseLanguage) ?? null, records: {} };
    for (const l of q.languages) row.records[l] = m?.get(l) ?? null;
    return row;
  });
}
