import type { Statements } from "./statements.ts";

/**
 * The export version of each language (migration 7): `bump` gives the languages a change touched a
 * new random tag, inside the caller's transaction; `read` is TranslationStore.exportVersion. A
 * random tag, not a counter, so a database restored from a backup never hands out a tag again
 * for other content.
 */
export function createExportVersions(s: Statements) {
  const upsert = s.prepare<never, [string, string, string]>(
    `INSERT INTO export_versions (project_id, language, tag) VALUES (?, ?, ?)
     ON CONFLICT (project_id, language) DO UPDATE SET tag = excluded.tag`,
  );
  const select = s.prepare<{ tag: string }, [string, string]>(
    "SELECT tag FROM export_versions WHERE project_id = ? AND language = ?",
  );
  return {
    bump(projectId: string, languages: Iterable<string>): void {
      for (const language of new Set(languages)) upsert.run(projectId, language, crypto.randomUUID());
    },
    read(projectId: string, languages: readonly string[]): string {
      return languages.map((l) => `${l}=${select.get(projectId, l)?.tag ?? "-"}`).join(",");
    },
  };
}

export type ExportVersions = ReturnType<typeof createExportVersions>;
