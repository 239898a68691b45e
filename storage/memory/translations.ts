import { compareCodePoints } from "../../core/code-point.ts";
import type { TranslationStore } from "../../core/ports.ts";
import type { RecordState } from "../../core/records/types.ts";
import type { ExistingRow, Project } from "../../core/types.ts";
import { exportVersion, languageRows, type TranslationTable } from "./translation-table.ts";

const byKey = (a: RecordState, b: RecordState) => compareCodePoints(a.key, b.key);

export function createMemoryTranslationStore(
  table: TranslationTable,
  projects: Map<string, Project>,
): TranslationStore {
  const sorted = (projectId: string, language: string) =>
    [...languageRows(table, projectId, language).values()].sort(byKey);

  const exported = (projectId: string, language: string, ids: string[] | null) => {
    const wanted = ids === null ? null : new Set(ids);
    return sorted(projectId, language)
      .filter((t) => wanted === null || wanted.has(t.id))
      .map((t) => ({ id: t.id, key: t.key, value: t.value, status: t.status }));
  };

  return {
    async exportVersion(projectId, languages) {
      return languages.map((l) => `${l}=${exportVersion(table, projectId, l)}`).join(",");
    },
    async readLanguage(projectId, language) {
      const rows = new Map<string, ExistingRow>();
      for (const t of languageRows(table, projectId, language).values()) {
        rows.set(t.key, { id: t.id, value: t.value, status: t.status });
      }
      return rows;
    },
    async readValues(projectId, language, keys) {
      const rows = languageRows(table, projectId, language);
      const values = new Map<string, string>();
      for (const key of keys) {
        const t = rows.get(key);
        if (t) values.set(key, t.value);
      }
      return values;
    },
    async listForExport(projectId, language, ids) {
      return exported(projectId, language, ids);
    },
    async listForExportWithSource(projectId, language, sourceLanguage, ids) {
      const base = languageRows(table, projectId, sourceLanguage);
      return exported(projectId, language, ids).map((r) => ({
        key: r.key,
        value: r.value,
        status: r.status,
        source: base.get(r.key)?.value ?? null,
      }));
    },
    async listPage(projectId, language, limit, offset) {
      const all = sorted(projectId, language);
      return {
        items: all.slice(offset, offset + limit).map((t) => ({
          id: t.id,
          projectId: t.projectId,
          key: t.key,
          language: t.language,
          value: t.value,
          status: t.status,
          updatedAt: t.updatedAt,
        })),
        total: all.length,
      };
    },
    async countByOrg(orgId) {
      let n = 0;
      for (const p of projects.values()) {
        if (p.orgId !== orgId || p.deletedAt !== null) continue;
        for (const rows of table.get(p.id)?.values() ?? []) n += rows.size;
      }
      return n;
    },
    async coverage(projectId, baseLanguage) {
      const reference = new Set<string>();
      for (const t of languageRows(table, projectId, baseLanguage).values())
        if (t.value !== "") reference.add(t.key);
      const filled = new Map<string, number>();
      for (const [language, rows] of table.get(projectId) ?? []) {
        let n = 0;
        for (const t of rows.values()) if (t.value !== "" && reference.has(t.key)) n++;
        if (n > 0) filled.set(language, n);
      }
      return { referenceKeyCount: reference.size, filled };
    },
  };
}
