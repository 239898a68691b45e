import { compareCodePoints } from "../../core/code-point.ts";
import type { RecordStore } from "../../core/ports.ts";
import { searchText } from "../../core/records/fold.ts";
import type { BrowseCounts, BrowseQuery, DeletedKey, Paged, RecordState } from "../../core/records/types.ts";
import { addHistory, copyRecord, entryOf, type RecordLog, upsertRecord } from "./record-log.ts";
import { languageRows, type TranslationTable, writableLanguageRows } from "./translation-table.ts";

/** Newest first from an array kept oldest first; the cursor is an index into it. */
function newestFirst<T>(
  items: T[],
  keep: (item: T) => boolean,
  cursor: string | null,
  limit: number,
): Paged<T> {
  const out: T[] = [];
  let i = cursor === null ? items.length - 1 : Number(cursor) - 1;
  for (; i >= 0 && out.length < limit; i--) {
    const item = items[i] as T;
    if (keep(item)) out.push(item);
  }
  let more = false;
  for (let j = i; j >= 0; j--) if (keep(items[j] as T)) more = true;
  return { items: out, next: more ? String(i + 1) : null };
}

export function createMemoryRecordStore(table: TranslationTable, log: RecordLog): RecordStore {
  const live = (projectId: string) => table.get(projectId) ?? new Map<string, Map<string, RecordState>>();
  const recordsOfKey = (projectId: string, key: string): RecordState[] => {
    const out: RecordState[] = [];
    for (const rows of live(projectId).values()) {
      const r = rows.get(key);
      if (r) out.push(r);
    }
    return out;
  };
  const textMatches = (q: BrowseQuery, key: string): boolean => {
    const text = q.filter.q;
    if (!text) return true;
    return [q.baseLanguage, q.language].some((l) => {
      const r = languageRows(table, q.projectId, l).get(key);
      return r !== undefined && searchText(r.key, r.value).includes(text);
    });
  };
  const isMissing = (q: BrowseQuery, key: string): boolean => {
    const b = languageRows(table, q.projectId, q.baseLanguage).get(key);
    const t = languageRows(table, q.projectId, q.language).get(key);
    return b !== undefined && b.value !== "" && (t === undefined || t.value === "");
  };
  const recordMatches = (q: BrowseQuery, key: string): boolean => {
    const f = q.filter;
    const needsRecord =
      (f.statuses?.length ?? 0) > 0 ||
      f.warnings ||
      f.changedSince !== undefined ||
      f.changedBy !== undefined;
    if (!needsRecord) return true;
    const t = languageRows(table, q.projectId, q.language).get(key);
    if (!t) return false;
    if (f.statuses && f.statuses.length > 0 && !f.statuses.includes(t.status)) return false;
    if (f.warnings && t.warnings.length === 0) return false;
    if (f.changedSince !== undefined && t.updatedAt < f.changedSince) return false;
    if (f.changedBy !== undefined && !(t.updatedBy?.kind === "user" && t.updatedBy.userId === f.changedBy))
      return false;
    return true;
  };
  const allKeys = (projectId: string): string[] => {
    const keys = new Set<string>();
    for (const rows of live(projectId).values()) for (const k of rows.keys()) keys.add(k);
    return [...keys].sort(compareCodePoints);
  };
  const matching = (q: BrowseQuery): string[] =>
    allKeys(q.projectId).filter(
      (k) => textMatches(q, k) && (!q.filter.missing || isMissing(q, k)) && recordMatches(q, k),
    );

  return {
    async read(projectId, keys, languages) {
      const wanted = new Set(keys);
      const out: RecordState[] = [];
      for (const [language, rows] of live(projectId)) {
        if (languages !== null && !languages.includes(language)) continue;
        for (const r of rows.values()) if (wanted.has(r.key)) out.push(copyRecord(r));
      }
      return out;
    },
    async browse(q) {
      const keys = matching(q);
      const from = q.after === null ? keys : keys.filter((k) => compareCodePoints(k, q.after as string) > 0);
      const page = from.slice(0, q.limit);
      const counts: BrowseCounts = {
        total: keys.length,
        missing: 0,
        draft: 0,
        pending: 0,
        needs_review: 0,
        approved: 0,
        warnings: 0,
      };
      const textOnly: BrowseQuery = { ...q, filter: { q: q.filter.q } };
      for (const r of languageRows(table, q.projectId, q.language).values()) {
        if (!textMatches(textOnly, r.key)) continue;
        counts[r.status]++;
        if (r.warnings.length > 0) counts.warnings++;
      }
      for (const k of allKeys(q.projectId)) if (isMissing(q, k) && textMatches(textOnly, k)) counts.missing++;
      const rowOf = (l: string, k: string) => {
        const r = languageRows(table, q.projectId, l).get(k);
        return r ? copyRecord(r) : null;
      };
      const rows = page.map((key) => ({
        key,
        base: rowOf(q.baseLanguage, key),
        records: Object.fromEntries(q.languages.map((l) => [l, rowOf(l, key)])),
      }));
      return { rows, more: from.length > q.limit, counts };
    },
    async matchKeys(q) {
      return matching(q);
    },
    async commit(c) {
      for (const w of c.writes) {
        if (w.expectVersion === null) continue;
        const version = languageRows(table, c.projectId, w.language).get(w.key)?.version ?? 0;
        if (version !== w.expectVersion) return { ok: false, key: w.key, language: w.language };
      }
      for (const w of c.writes) {
        const record = upsertRecord(table, { ...w, projectId: c.projectId, actor: c.activity.actor }, c.at);
        addHistory(log, {
          ...entryOf(c.activity, record),
          oldValue: w.previous?.value ?? null,
          oldStatus: w.previous?.status ?? null,
          newValue: record.value,
          newStatus: record.status,
          version: record.version,
        });
      }
      const byId = new Map<string, RecordState>();
      for (const rows of live(c.projectId).values()) for (const r of rows.values()) byId.set(r.id, r);
      for (const r of c.rechecks) {
        const record = byId.get(r.id);
        if (record) record.warnings = r.warnings.map((x) => ({ ...x }));
      }
      log.activity.push({ ...c.activity, detail: { ...c.activity.detail } });
      return { ok: true };
    },
    async history(recordId, cursor, limit) {
      return newestFirst(log.history, (e) => e.recordId === recordId, cursor, limit);
    },
    async historyEntry(projectId, entryId) {
      const e = log.history.find((x) => x.id === entryId && x.projectId === projectId);
      return e ? { ...e } : null;
    },
    async activity(projectId, cursor, limit) {
      return newestFirst(log.activity, (a) => a.projectId === projectId, cursor, limit);
    },
    async renameKey(projectId, from, to, a) {
      const records = recordsOfKey(projectId, from);
      if (records.length === 0) return "missing";
      if (recordsOfKey(projectId, to).length > 0) return "exists";
      for (const r of records) {
        const rows = writableLanguageRows(table, projectId, r.language);
        rows.delete(from);
        const renamed = { ...r, key: to, version: r.version + 1, updatedAt: a.at, updatedBy: a.actor };
        rows.set(to, renamed);
        addHistory(log, {
          ...entryOf(a, renamed),
          oldValue: r.value,
          oldStatus: r.status,
          newValue: r.value,
          newStatus: r.status,
          version: renamed.version,
        });
      }
      log.activity.push({ ...a, detail: { ...a.detail, records: records.length } });
      return "renamed";
    },
    async deleteKeys(projectId, keys, a) {
      let n = 0;
      for (const key of keys) {
        for (const r of recordsOfKey(projectId, key)) {
          writableLanguageRows(table, projectId, r.language).delete(key);
          log.deleted.push({ ...r, deletedAt: a.at, deletedBy: a.actor });
          addHistory(log, {
            ...entryOf(a, r),
            oldValue: r.value,
            oldStatus: r.status,
            newValue: null,
            newStatus: null,
            version: null,
          });
          n++;
        }
      }
      if (n > 0) log.activity.push({ ...a, detail: { ...a.detail, records: n } });
      return n;
    },
    async listDeleted(projectId) {
      const byKey = new Map<string, DeletedKey>();
      for (const d of log.deleted) {
        if (d.projectId !== projectId) continue;
        const k = byKey.get(d.key);
        if (!k || k.deletedAt <= d.deletedAt) {
          const languages = new Set([...(k?.languages ?? []), d.language]);
          byKey.set(d.key, {
            key: d.key,
            deletedAt: d.deletedAt,
            deletedBy: d.deletedBy,
            languages: [...languages],
          });
        } else if (!k.languages.includes(d.language)) k.languages.push(d.language);
      }
      return [...byKey.values()]
        .map((k) => ({ ...k, languages: k.languages.sort(compareCodePoints) }))
        .sort((x, y) =>
          x.deletedAt === y.deletedAt ? compareCodePoints(x.key, y.key) : x.deletedAt < y.deletedAt ? 1 : -1,
        );
    },
    async restoreKey(projectId, key, a) {
      const rows = log.deleted.filter((d) => d.projectId === projectId && d.key === key);
      if (rows.length === 0) return "missing";
      if (recordsOfKey(projectId, key).length > 0) return "exists";
      const newest = new Map<string, RecordState>();
      for (const r of rows) {
        const seen = newest.get(r.language) as (RecordState & { deletedAt?: string }) | undefined;
        if (!seen || (seen.deletedAt ?? "") <= r.deletedAt) newest.set(r.language, r);
      }
      for (const d of newest.values()) {
        const {
          deletedAt: _at,
          deletedBy: _by,
          ...r
        } = d as RecordState & { deletedAt: string; deletedBy: unknown };
        const restored: RecordState = { ...r, version: r.version + 1, updatedAt: a.at, updatedBy: a.actor };
        writableLanguageRows(table, projectId, r.language).set(key, restored);
        addHistory(log, {
          ...entryOf(a, restored),
          oldValue: null,
          oldStatus: null,
          newValue: r.value,
          newStatus: r.status,
          version: restored.version,
        });
      }
      log.deleted = log.deleted.filter((d) => !(d.projectId === projectId && d.key === key));
      log.activity.push({ ...a, detail: { ...a.detail, records: newest.size } });
      return "restored";
    },
    async coverage(projectId, baseLanguage, languages) {
      const reference = new Set<string>();
      for (const r of languageRows(table, projectId, baseLanguage).values())
        if (r.value !== "") reference.add(r.key);
      return languages.map((language) => {
        const c = {
          language,
          referenceKeys: reference.size,
          missing: reference.size,
          draft: 0,
          pending: 0,
          needs_review: 0,
          approved: 0,
          warnings: 0,
        };
        for (const r of languageRows(table, projectId, language).values()) {
          if (r.value === "" || !reference.has(r.key)) continue;
          c[r.status]++;
          c.missing--;
          if (r.warnings.length > 0) c.warnings++;
        }
        return c;
      });
    },
  };
}
