/**
 * The seed the SQLite export-stream and base-cache tests share: organization o1, project p1 (base
 * `en`, with `fr`) and `keys` keys in both languages, written straight into the tables.
 */
import type { Database } from "bun:sqlite";
import type { Storage } from "../../core/ports.ts";
import { seedOrgAndProject, T } from "./sqlite-import-fixtures.ts";

/** Keys in code-point order whatever their number: `k00000`, `k00001`, … */
export const keyOf = (i: number) => `k${String(i).padStart(5, "0")}`;

export interface PairedSeed {
  keys: number;
  /** Whether key `i` has a row in `language` (default: every key in both). */
  has?: (i: number, language: "en" | "fr") => boolean;
  /** Each language's export-version tag (default: none written). */
  tag?: string;
}

/** Rows `<language>-<i>` valued `<language> <i>`, approved, in one transaction. */
export async function seedPairedProject(
  { db, storage }: { db: Database; storage: Storage },
  { keys, has = () => true, tag }: PairedSeed,
): Promise<void> {
  await seedOrgAndProject({ db, storage });
  const insert = db.prepare(
    `INSERT INTO translations (id, project_id, language, key, value, status, updated_at)
     VALUES (?, 'p1', ?, ?, ?, 'approved', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < keys; i++)
      for (const l of ["en", "fr"] as const)
        if (has(i, l)) insert.run(`${l}-${i}`, l, keyOf(i), `${l} ${i}`, T);
    if (tag !== undefined)
      db.run(
        "INSERT INTO export_versions (project_id, language, tag) VALUES ('p1', 'en', ?), ('p1', 'fr', ?)",
        [tag, tag],
      );
  })();
  insert.finalize();
}

/** The base lacks some of fr's keys and has keys fr lacks, on every page. */
export const gappedPairs = (i: number, language: "en" | "fr") =>
  language === "en" ? i % 7 !== 0 : i % 11 !== 0;
