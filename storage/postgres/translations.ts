import type { Sql } from "postgres";
import type { LanguageCoverage, TranslationStore } from "../../core/ports.ts";
import type { ExistingRow, Translation, TranslationRow, TranslationStatus } from "../../core/types.ts";
import { type DbRow, iso, num, str } from "./convert.ts";
import { readExportVersion } from "./export-versions.ts";

const toTranslation = (r: DbRow): Translation => ({
  id: str(r.id),
  projectId: str(r.project_id),
  key: str(r.key),
  language: str(r.language),
  value: str(r.value),
  status: str(r.status) as TranslationStatus,
  updatedAt: iso(r.updated_at),
});

export function createTranslationStore(sql: Sql): TranslationStore {
  return {
    async exportVersion(projectId, languages) {
      return readExportVersion(sql, projectId, languages);
    },
    async readLanguage(projectId, language) {
      const rows = await sql`
        SELECT id, key, value, status FROM translations
        WHERE project_id = ${projectId} AND language = ${language}`;
      const byKey = new Map<string, ExistingRow>();
      for (const r of rows) {
        byKey.set(str(r.key), {
          id: str(r.id),
          value: str(r.value),
          status: str(r.status) as TranslationStatus,
        });
      }
      return byKey;
    },
    async listForExport(projectId, language, ids) {
      // Only what an export writes: no timestamptz to parse into a Date and back per row.
      const rows = await sql<TranslationRow[]>`
        SELECT id, key, value, status FROM translations
        WHERE project_id = ${projectId} AND language = ${language}
          ${ids === null ? sql`` : sql`AND id = ANY (${sql.array(ids)}::text[])`}
        ORDER BY key COLLATE "C"`;
      return rows;
    },
    async listPage(projectId, language, limit, offset) {
      const [rows, [total]] = await Promise.all([
        sql`SELECT * FROM translations WHERE project_id = ${projectId} AND language = ${language}
            ORDER BY key COLLATE "C" LIMIT ${limit} OFFSET ${offset}`,
        sql`SELECT count(*) AS n FROM translations WHERE project_id = ${projectId} AND language = ${language}`,
      ]);
      return { items: rows.map(toTranslation), total: num(total?.n ?? 0) };
    },
    async countByOrg(orgId) {
      const [row] = await sql`
        SELECT count(*) AS n FROM translations t JOIN projects p ON p.id = t.project_id
        WHERE p.org_id = ${orgId} AND p.deleted_at IS NULL`;
      return num(row?.n ?? 0);
    },
    async coverage(projectId, baseLanguage) {
      // One statement: the first row (language NULL) carries the reference count, the others
      // the filled count of each language that has any reference key filled.
      const rows = await sql`
        WITH ref AS (
          SELECT key FROM translations
          WHERE project_id = ${projectId} AND language = ${baseLanguage} AND value <> ''
        )
        SELECT NULL AS language, count(*) AS n FROM ref
        UNION ALL
        SELECT t.language, count(*) FROM translations t JOIN ref ON ref.key = t.key
        WHERE t.project_id = ${projectId} AND t.value <> ''
        GROUP BY t.language`;
      const result: LanguageCoverage = { referenceKeyCount: 0, filled: new Map() };
      for (const r of rows) {
        if (r.language === null) result.referenceKeyCount = num(r.n);
        else result.filled.set(str(r.language), num(r.n));
      }
      return result;
    },
  };
}
