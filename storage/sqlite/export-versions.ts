import type { Statements } from "./statements.ts";

type BumpListener = (projectId: string, languages: readonly string[]) => void;

/**
 * One storage's listeners to its own bumps (every connection it writes through tells the same
 * object): for memory to let go early, never for correctness, which rests on the tags themselves.
 * What a listener is told may still roll back, and is told before the writer's commit.
 */
export interface ExportBumps {
  /** Calls `listener` after each bump; returns the call that stops it. */
  listen(listener: BumpListener): () => void;
  tell(projectId: string, languages: readonly string[]): void;
}

export function createExportBumps(): ExportBumps {
  const listeners = new Set<BumpListener>();
  return {
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    tell(projectId, languages) {
      for (const listener of listeners) listener(projectId, languages);
    },
  };
}

/**
 * The export version of each language (migration 7): `bump` gives the languages a change touched a
 * new random tag, inside the caller's transaction, and tells `bumps`; `read` is
 * TranslationStore.exportVersion. A random tag, not a counter, so a database restored from a
 * backup never hands out a tag again for other content.
 */
export function createExportVersions(s: Statements, bumps?: ExportBumps) {
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
      bumps?.tell(projectId, bumped);
    },
    read(projectId: string, languages: readonly string[]): string {
      return languages.map((l) => `${l}=${select.get(projectId, l)?.tag ?? "-"}`).join(",");
    },
  };
}

export type ExportVersions = ReturnType<typeof createExportVersions>;
