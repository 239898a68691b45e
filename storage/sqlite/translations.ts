import type { Database } from "bun:sqlite";
import type { TranslationStore } from "../../core/ports.ts";
import type {
  ExistingRow,
  TranslationRow as ExportedRow,
  SourcedRow,
  Translation,
  TranslationStatus,
} from "../../core/types.ts";
import { languageCoverage } from "../coverage-groups.ts";
import { pairSources } from "../paired-sources.ts";
import type { CoverageGroups } from "./coverage.ts";
import type { ExportStream } from "./export-stream.ts";
import { createExportVersions } from "./export-versions.ts";
import { int, type Statements } from "./statements.ts";

interface TranslationRow {
  id: string;
  project_id: string;
  language: string;
  key: string;
  value: string;
  status: TranslationStatus;
  updated_at: string;
}

const toTranslation = (r: TranslationRow): Translation => ({
  id: r.id,
  projectId: r.project_id,
  key: r.key,
  language: r.language,
  value: r.value,
  status: r.status,
  updatedAt: r.updated_at,
});

type Count = { n: number | bigint };

/** Rows per page of readLanguage: a few milliseconds of work. */
const READ_PAGE_ROWS = 5000;
/** readValues reads the span of this many keys or more at once, when they ascend and fill it. */
const SPAN_READ_KEYS = 256;
/** A span read reads at most this many rows per key asked for (else the keys are probed). */
const SPAN_ROWS_PER_KEY = 2;
/** Keys whose span is counted before the whole span's. */
const SPAN_SAMPLE_KEYS = 64;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Whether the keys strictly ascend in SQLite's order (code points, as UTF-8 bytes compare): where
 * no key holds a surrogate, JavaScript's order of UTF-16 code units is the same.
 */
function ascending(keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (SURROGATE.test(key) || (i > 0 && !((keys[i - 1] as string) < key))) return false;
  }
  return true;
}
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// ORDER BY key uses the BINARY collation: UTF-8 byte order, which is code-point order.
const COLUMNS = "id, project_id, language, key, value, status, updated_at";

export function createSqliteTranslationStore(
  db: Database,
  s: Statements,
  coverage: CoverageGroups,
  exportStream?: ExportStream,
): TranslationStore {
  type Existing = Omit<TranslationRow, "project_id" | "language" | "updated_at">;
  const firstPage = s.prepare<Existing, [string, string, number]>(
    "SELECT id, key, value, status FROM translations WHERE project_id = ? AND language = ? ORDER BY key LIMIT ?",
  );
  const nextPage = s.prepare<Existing, [string, string, string, number]>(
    `SELECT id, key, value, status FROM translations WHERE project_id = ? AND language = ? AND key > ?
     ORDER BY key LIMIT ?`,
  );
  // One probe of the unique index (project_id, language, key) per key: CROSS JOIN keeps the keys
  // outside (with `key IN (…)` SQLite may scan the language instead).
  const selectValues = s.prepare<{ key: string; value: string }, [string, string, string]>(
    `SELECT t.key, t.value FROM json_each(?3) j CROSS JOIN translations t
     WHERE t.project_id = ?1 AND t.language = ?2 AND t.key = j.value`,
  );
  // Keys listed in ascending order that fill most of their span (a large push's batch of checks):
  // the span read in key order, about half the cost of a probe per key (50,000 base values in
  // batches of 2,000: 65 against 120 ms). The span's index entries are counted first, at most to
  // twice the keys: a sparse span (a 10 % push's batch) costs a short index walk before the probes.
  const spanCount = s.prepare<Count, [string, string, string, string, number]>(
    `SELECT COUNT(*) AS n FROM (SELECT 1 FROM translations
       WHERE project_id = ?1 AND language = ?2 AND key >= ?3 AND key <= ?4 LIMIT ?5)`,
  );
  const spanValues = s.prepare<{ key: string; value: string }, [string, string, string, string]>(
    "SELECT key, value FROM translations WHERE project_id = ?1 AND language = ?2 AND key >= ?3 AND key <= ?4",
  );
  const readSpan = db.transaction((projectId: string, language: string, keys: readonly string[]) => {
    // The first keys' span first: most sparse spans are told after a walk of 129 index entries.
    const fills = (to: number) => {
      const most = (to + 1) * SPAN_ROWS_PER_KEY;
      const n = spanCount.get(projectId, language, keys[0] as string, keys[to] as string, most + 1)?.n;
      return int(n ?? 0) <= most;
    };
    if (!fills(SPAN_SAMPLE_KEYS - 1) || !fills(keys.length - 1)) return null;
    const [first, last] = [keys[0] as string, keys[keys.length - 1] as string];
    const wanted = new Set(keys);
    const values = new Map<string, string>();
    for (const r of spanValues.all(projectId, language, first, last))
      if (wanted.has(r.key)) values.set(r.key, r.value);
    return values;
  });
  // Exports select only what they write: fewer columns to materialize for 50,000 rows.
  const selectAll = s.prepare<ExportedRow, [string, string]>(
    "SELECT id, key, value, status FROM translations WHERE project_id = ? AND language = ? ORDER BY key",
  );
  const selectIds = s.prepare<ExportedRow, [string, string, string]>(
    `SELECT id, key, value, status FROM translations
     WHERE project_id = ? AND language = ? AND id IN (SELECT value FROM json_each(?))
     ORDER BY key`,
  );
  // A pull's rows: the same without the id, which no format writes.
  const selectAllWithoutIds = s.prepare<Omit<ExportedRow, "id">, [string, string]>(
    "SELECT key, value, status FROM translations WHERE project_id = ? AND language = ? ORDER BY key",
  );
  const selectIdsWithoutIds = s.prepare<Omit<ExportedRow, "id">, [string, string, string]>(
    `SELECT key, value, status FROM translations
     WHERE project_id = ? AND language = ? AND id IN (SELECT value FROM json_each(?))
     ORDER BY key`,
  );
  // XLIFF's whole language with its source: the language and the base, each scanned in key order,
  // paired in one pass; one read transaction, so both are the same moment.
  // `source` read as NULL: each row object has its slot before pairSources fills it, so 50,000
  // rows are not each grown by one property.
  const selectUnsourced = s.prepare<SourcedRow, [string, string]>(
    `SELECT key, value, status, NULL AS source FROM translations
     WHERE project_id = ? AND language = ? ORDER BY key`,
  );
  const selectBase = s.prepare<{ key: string; value: string }, [string, string]>(
    "SELECT key, value FROM translations WHERE project_id = ? AND language = ? ORDER BY key",
  );
  const readSourced = db.transaction((projectId: string, language: string, sourceLanguage: string) =>
    pairSources(selectUnsourced.all(projectId, language), selectBase.all(projectId, sourceLanguage)),
  );
  // A selection of rows: each probes the base language through the unique index.
  const selectSourcedIds = s.prepare<SourcedRow, [string, string, string, string]>(
    `SELECT t.key AS key, t.value AS value, t.status AS status, b.value AS source
     FROM translations t LEFT JOIN translations b
       ON b.project_id = t.project_id AND b.language = ?3 AND b.key = t.key
     WHERE t.project_id = ?1 AND t.language = ?2 AND t.id IN (SELECT value FROM json_each(?4))
     ORDER BY t.key`,
  );
  const selectPage = s.prepare<TranslationRow, [string, string, number, number]>(
    `SELECT ${COLUMNS} FROM translations WHERE project_id = ? AND language = ? ORDER BY key LIMIT ? OFFSET ?`,
  );
  const countLanguage = s.prepare<Count, [string, string]>(
    "SELECT COUNT(*) AS n FROM translations WHERE project_id = ? AND language = ?",
  );
  const countOrg = s.prepare<Count, [string]>(
    `SELECT COUNT(*) AS n FROM translations t JOIN projects p ON p.id = t.project_id
     WHERE p.org_id = ? AND p.deleted_at IS NULL`,
  );
  const readPage = db.transaction((projectId: string, language: string, limit: number, offset: number) => ({
    items: selectPage.all(projectId, language, limit, offset).map(toTranslation),
    total: int(countLanguage.get(projectId, language)?.n ?? 0),
  }));

  const versions = createExportVersions(s);

  return {
    async exportVersion(projectId, languages) {
      return versions.read(projectId, languages);
    },
    async readValues(projectId, language, keys) {
      const span =
        keys.length >= SPAN_READ_KEYS && ascending(keys) ? readSpan(projectId, language, keys) : null;
      if (span) return span;
      const values = new Map<string, string>();
      for (const r of selectValues.all(projectId, language, JSON.stringify(keys))) values.set(r.key, r.value);
      return values;
    },
    async readLanguage(projectId, language) {
      // In pages, with a turn of the event loop between them: 50,000 rows read at once held every
      // request for tens of milliseconds. Imports read this way; their commit upserts by key, so
      // a row another writer adds between two pages is still written right.
      const rows = new Map<string, ExistingRow>();
      let after: string | null = null;
      for (;;) {
        const page: Existing[] =
          after === null
            ? firstPage.all(projectId, language, READ_PAGE_ROWS)
            : nextPage.all(projectId, language, after, READ_PAGE_ROWS);
        for (const r of page) rows.set(r.key, { id: r.id, value: r.value, status: r.status });
        const last = page.at(-1);
        if (!last || page.length < READ_PAGE_ROWS) return rows;
        after = last.key;
        await nextTurn();
      }
    },
    async listForExport(projectId, language, ids) {
      if (ids === null) return selectAll.all(projectId, language);
      if (ids.length === 0) return [];
      return selectIds.all(projectId, language, JSON.stringify(ids));
    },
    async listForExportWithoutIds(projectId, language, ids) {
      if (ids === null) return selectAllWithoutIds.all(projectId, language);
      if (ids.length === 0) return [];
      return selectIdsWithoutIds.all(projectId, language, JSON.stringify(ids));
    },
    async listForExportWithSource(projectId, language, sourceLanguage, ids) {
      if (ids === null) return readSourced(projectId, language, sourceLanguage);
      if (ids.length === 0) return [];
      return selectSourcedIds.all(projectId, language, sourceLanguage, JSON.stringify(ids));
    },
    async streamForExportWithSource(projectId, language, sourceLanguage) {
      return exportStream?.open(projectId, language, sourceLanguage) ?? null;
    },
    async listPage(projectId, language, limit, offset) {
      return readPage(projectId, language, limit, offset);
    },
    async countByOrg(orgId) {
      return int(countOrg.get(orgId)?.n ?? 0);
    },
    async coverage(projectId, baseLanguage) {
      return languageCoverage(coverage(projectId, baseLanguage), baseLanguage);
    },
  };
}
