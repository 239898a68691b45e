/** The SQLite floor: raw bun:sqlite, same schema and connection settings as Parlance's store. */
import { Database } from "bun:sqlite";
import { SQLITE_MIGRATIONS } from "../storage/sqlite/schema.ts";
import { flattenDocument } from "./data.ts";
import { FLOOR_ORG, FLOOR_PROJECT, type Floor } from "./floor.ts";
import { since } from "./stats.ts";

export function openSqliteFloor(path: string): Floor {
  const db = new Database(path, { create: true });
  // The pragmas of storage/sqlite/migrate.ts configureSqlite.
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("PRAGMA foreign_keys = ON");
  for (const m of SQLITE_MIGRATIONS) db.run(m.sql);
  const now = new Date().toISOString();
  db.run("INSERT INTO organizations (id, name, created_at) VALUES (?, 'floor', ?)", [FLOOR_ORG, now]);
  db.run(
    `INSERT INTO projects (id, org_id, name, base_language, languages, created_at)
     VALUES (?, ?, 'floor', 'en', '["en"]', ?)`,
    [FLOOR_PROJECT, FLOOR_ORG, now],
  );
  const upsert = db.prepare<never, [string, string, string, string, string, string, string]>(
    `INSERT INTO translations (id, project_id, language, key, value, status, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, language, key)
     DO UPDATE SET value = excluded.value, status = excluded.status, updated_at = excluded.updated_at
     WHERE translations.value <> excluded.value OR translations.status <> excluded.status`,
  );
  const select = db.prepare<{ key: string; value: string }, [string, string]>(
    "SELECT key, value FROM translations WHERE project_id = ? AND language = ? ORDER BY key",
  );
  const write = db.transaction((language: string, rows: [string, string][], at: string) => {
    for (const [key, value] of rows)
      upsert.run(crypto.randomUUID(), FLOOR_PROJECT, language, key, value, "approved", at);
  });

  return {
    async push(content, language) {
      const start = performance.now();
      const rows = flattenDocument(JSON.parse(content));
      write.immediate(language, rows, new Date().toISOString());
      return since(start);
    },
    async pull(language) {
      const start = performance.now();
      const text = JSON.stringify(select.all(FLOOR_PROJECT, language));
      if (text.length < 3) throw new Error("the SQLite floor has no rows to pull");
      return since(start);
    },
    async close() {
      upsert.finalize();
      select.finalize();
      db.close();
    },
  };
}
