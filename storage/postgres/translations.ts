import type { Sql, TransactionSql } from "postgres";
import type { TranslationStore } from "../../core/ports.ts";
import type {
  ExistingRow,
  SourcedRow,
  Translation,
  TranslationRow,
  TranslationStatus,
} from "../../core/types.ts";
import { languageCoverage } from "../coverage-groups.ts";
import { PageQueue } from "../page-queue.ts";
import { type DbRow, iso, num, str } from "./convert.ts";
import type { CoverageGroups } from "./coverage.ts";
import { exportRead, SELECTED_SOURCED_ROWS_SQL, SOURCED_ROWS_SQL } from "./export-read.ts";
import { readExportVersion } from "./export-versions.ts";

/** Rows per page of an export read while it is sent: about 300 KiB of XLIFF, a few pieces. */
const EXPORT_PAGE_ROWS = 500;

const toTranslation = (r: DbRow): Translation => ({
  id: str(r.id),
  projectId: str(r.project_id),
  key: str(r.key),
  language: str(r.language),
  value: str(r.value),
  status: str(r.status) as TranslationStatus,
  updatedAt: iso(r.updated_at),
});

export function createTranslationStore(sql: Sql, coverage: CoverageGroups): TranslationStore {
  /**
   * A whole language's rows with their sources, each given to `onRow` as the socket delivers it.
   * No index orders keys (they are indexed by digest): the join merges both languages, each sorted
   * by key, so rows flow as soon as both sorts are done. The hash join the planner prefers hashed
   * the base's wide rows and sorted the joined ones before the first row, about twice the
   * database's work; reading the base apart cost the server more than it saved (docs/benchmarks.md,
   * "The Postgres XLIFF pull, eleventh pass").
   */
  const readSourced = (
    projectId: string,
    language: string,
    sourceLanguage: string,
    onRow: (row: SourcedRow) => void,
  ) =>
    exportRead(
      sql,
      (tx) =>
        tx
          .unsafe(SOURCED_ROWS_SQL, [projectId, language, sourceLanguage], { prepare: true })
          .values()
          .forEach(([key, value, status, source]) => {
            onRow({
              key: key as string,
              value: value as string,
              status: status as TranslationStatus,
              source: source as string | null,
            });
          }),
      { mergeJoin: true },
    );

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
      const read = (tx: Sql | TransactionSql) => tx<TranslationRow[]>`
        SELECT id, key, value, status FROM translations
        WHERE project_id = ${projectId} AND language = ${language}
          ${ids === null ? tx`` : tx`AND id = ANY (${tx.array(ids)}::text[])`}
        ORDER BY key COLLATE "C"`;
      // A few selected records need no settings for a large sort (three more round trips).
      return ids === null ? exportRead(sql, read) : read(sql);
    },
    async listForExportWithoutIds(projectId, language, ids) {
      // A pull's rows: no id, which no format writes, to send and decode per row.
      const read = (tx: Sql | TransactionSql) => tx<Omit<TranslationRow, "id">[]>`
        SELECT key, value, status FROM translations
        WHERE project_id = ${projectId} AND language = ${language}
          ${ids === null ? tx`` : tx`AND id = ANY (${tx.array(ids)}::text[])`}
        ORDER BY key COLLATE "C"`;
      return ids === null ? exportRead(sql, read) : read(sql);
    },
    async listForExportWithSource(projectId, language, sourceLanguage, ids) {
      if (ids !== null) {
        // Selected records: each probes the base language by its key's digest (translations_key),
        // no transaction. A join by key let the planner, before the table's first ANALYZE, read
        // the whole base for each selected record (docs/decisions.md, "Joins by key before the
        // first ANALYZE").
        return sql.unsafe<SourcedRow[]>(SELECTED_SOURCED_ROWS_SQL, [
          projectId,
          language,
          sourceLanguage,
          ids,
        ]);
      }
      const rows: SourcedRow[] = [];
      await readSourced(projectId, language, sourceLanguage, (row) => {
        rows.push(row);
      });
      return rows;
    },
    pagesForExportWithSource(projectId, language, sourceLanguage) {
      const pages = new PageQueue<SourcedRow>(EXPORT_PAGE_ROWS);
      readSourced(projectId, language, sourceLanguage, (row) => pages.push(row)).then(
        () => pages.end(),
        (e: unknown) => pages.fail(e),
      );
      return pages;
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
      return languageCoverage(await coverage(projectId, baseLanguage), baseLanguage);
    },
  };
}
