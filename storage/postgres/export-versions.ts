import type { Sql, TransactionSql } from "postgres";
import { compareCodePoints } from "../../core/code-point.ts";

/**
 * The export version of each language (migration 7): a random tag (never a counter: a database
 * restored from a backup must not hand a tag out again for other content), replaced inside the
 * transaction of any change of the language's rows or environment overrides.
 *
 * Called last in its transaction, languages in code-point order: a transaction takes a tag's row
 * lock only once it holds all its translation row locks, and tags always in the same order, so two
 * writers cannot wait on each other in a cycle.
 */
export async function bumpExportVersions(
  tx: TransactionSql,
  projectId: string,
  languages: Iterable<string>,
): Promise<void> {
  const sorted = [...new Set(languages)].sort(compareCodePoints);
  if (sorted.length === 0) return;
  const tags = sorted.map(() => crypto.randomUUID());
  await tx`
    INSERT INTO export_versions (project_id, language, tag)
    SELECT ${projectId}, l.language, l.tag
    FROM unnest(${tx.array(sorted)}::text[], ${tx.array(tags)}::text[]) WITH ORDINALITY AS l(language, tag, n)
    ORDER BY l.n
    ON CONFLICT (project_id, language) DO UPDATE SET tag = excluded.tag`;
}

/** TranslationStore.exportVersion: one read of at most a few rows. */
export async function readExportVersion(
  sql: Sql,
  projectId: string,
  languages: readonly string[],
): Promise<string> {
  const rows = await sql`
    SELECT language, tag FROM export_versions
    WHERE project_id = ${projectId} AND language = ANY (${sql.array([...languages])}::text[])`;
  const tags = new Map(rows.map((r) => [String(r.language), String(r.tag)]));
  return languages.map((l) => `${l}=${tags.get(l) ?? "-"}`).join(",");
}
