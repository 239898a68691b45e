/**
 * The Postgres floor: the `postgres` package alone, same schema (Parlance's migration) in its own
 * database, one INSERT … SELECT FROM unnest(…) ON CONFLICT statement per push, as a bulk load.
 */
import type { Sql } from "postgres";
import { postgresMigrations } from "../storage/postgres/schema.ts";
import { flattenDocument } from "./data.ts";
import { FLOOR_ORG, FLOOR_PROJECT, type Floor } from "./floor.ts";
import { since } from "./stats.ts";

export async function openPostgresFloor(sql: Sql): Promise<Floor> {
  for (const m of postgresMigrations) await sql.unsafe(m.sql).simple();
  await sql`INSERT INTO organizations (id, name, created_at) VALUES (${FLOOR_ORG}, 'floor', now())`;
  await sql`
    INSERT INTO projects (id, org_id, name, base_language, languages, created_at)
    VALUES (${FLOOR_PROJECT}, ${FLOOR_ORG}, 'floor', 'en', ${sql.array(["en"])}, now())`;

  return {
    async push(content, language) {
      const start = performance.now();
      const rows = flattenDocument(JSON.parse(content));
      const now = new Date().toISOString();
      await sql.begin(async (tx) => {
        await tx`
          INSERT INTO translations (id, project_id, language, key, value, status, updated_at)
          SELECT u.id, ${FLOOR_PROJECT}, ${language}, u.key, u.value, 'approved', ${now}::timestamptz
          FROM unnest(${tx.array(rows.map(() => crypto.randomUUID()))}::text[],
                      ${tx.array(rows.map((r) => r[0]))}::text[],
                      ${tx.array(rows.map((r) => r[1]))}::text[]) AS u(id, key, value)
          ON CONFLICT (project_id, language, parlance_key_digest(key)) DO UPDATE
          SET value = excluded.value, status = excluded.status, updated_at = excluded.updated_at
          WHERE translations.value <> excluded.value OR translations.status <> excluded.status`;
      });
      return since(start);
    },
    async pull(language) {
      const start = performance.now();
      const rows = await sql`
        SELECT key, value FROM translations
        WHERE project_id = ${FLOOR_PROJECT} AND language = ${language}
        ORDER BY key COLLATE "C"`;
      const text = JSON.stringify(rows);
      if (text.length < 3) throw new Error("the Postgres floor has no rows to pull");
      return since(start);
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
