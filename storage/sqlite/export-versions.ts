import type { Statements } from "./statements.ts";

/**
 * The export version of each language (migration 7): `bump` gives the languages a change touched a
 * new random tag, inside the caller's transaction; `read` is TranslationStore.exportVersion. A
 * random tag, not a counter, so a database restored from a backup never hands out a tag again
 * for other content.
 */
type BumpListener = (projectId: string, languages: readonly string[]) => void;
const bumpListeners = new Set<BumpListener>();

/**
 * Calls `listener` after each bump in this process (what it is told may still roll back): for
 * memory to let go early, never for correctness, which rests on the tags themselves. Returns the
 * call that stops it.
 */
export function onExportVersionBump(listener: BumpListener): () => void {
  bumpListeners.add(listener);
  return () => bumpListeners.delete(listener);
}

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
      const bumped = [...new Set(languages)];
      for (const language of bumped) upsert.run(projectId, language, crypto.randomUUID());
      for (const listener of bumpListeners) listener(projectId, bumped);
    },
    read(projectId: string, languages: readonly string[]): string {
      return languages.map((l) => `${l}=${select.get(projectId, l)?.tag ?? "-"}`).join(",");
    },
  };
}

export type ExportVersions = ReturnType<typeof createExportVersions>;
