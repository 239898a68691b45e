/**
 * The XLIFF read on Postgres (a language joined to its base by key) merges both sides sorted,
 * whatever the planner knows of the table. Before the first ANALYZE (a new instance's first
 * import, until autovacuum comes by) it counts one row a side; left to itself it then loops over
 * the base for each row, comparing every pair: 15 s for 5,000 keys, hours for 50,000.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Sql } from "postgres";
import { exportRead, SOURCED_ROWS_SQL } from "../../storage/postgres/export-read.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { createTestSchema, postgresReachable, type TestSchema } from "./postgres-setup.ts";

const T = "2026-01-01T00:00:00.000Z";
const ROWS = 2000;

if (await postgresReachable()) {
  let schema: TestSchema;
  let sql: Sql;
  beforeEach(async () => {
    schema = await createTestSchema();
    sql = schema.connect(2);
    const s = await createPostgresStorage(sql);
    await s.orgs.create({ id: "o", name: "Org", maxTranslations: null, createdAt: T });
    await s.projects.create({
      id: "p",
      orgId: "o",
      name: "P",
      baseLanguage: "en",
      languages: ["en", "fr"],
      deletedAt: null,
      createdAt: T,
    });
    // Straight into the table: what matters here is that nothing has analyzed it yet.
    await sql`
      INSERT INTO translations (id, project_id, language, key, value, status, updated_at)
      SELECT l || '-' || i, 'p', l, 'key.' || lpad(i::text, 5, '0'), l || ' value ' || i, 'approved', ${T}
      FROM generate_series(1, ${ROWS}) AS i, unnest(ARRAY['en', 'fr']) AS l`;
  });
  afterEach(() => schema.drop());

  const plan = async (): Promise<string> => {
    const rows = await exportRead(sql, (tx) => tx.unsafe(`EXPLAIN ${SOURCED_ROWS_SQL}`, ["p", "fr", "en"]), {
      mergeJoin: true,
    });
    return rows.map((r) => String(r["QUERY PLAN"])).join("\n");
  };

  test("before any ANALYZE, the join merges and loops over nothing", async () => {
    const [stats] = await sql`SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'translations'
      AND schemaname = current_schema()`;
    expect(stats?.n).toBe(0);
    const text = await plan();
    expect(text).toContain("Merge Left Join");
    expect(text).not.toContain("Nested Loop");
  });

  test("after ANALYZE too", async () => {
    await sql`ANALYZE translations`;
    const text = await plan();
    expect(text).toContain("Merge Left Join");
    expect(text).not.toContain("Nested Loop");
  });

  test("the read gives every row with its source, in key order", async () => {
    const read = await exportRead(sql, (tx) => tx.unsafe(SOURCED_ROWS_SQL, ["p", "fr", "en"]).values(), {
      mergeJoin: true,
    });
    expect(read.length).toBe(ROWS);
    expect(read[0]).toEqual(["key.00001", "fr value 1", "approved", "en value 1"]);
    expect(read.at(-1)).toEqual([`key.0${ROWS}`, `fr value ${ROWS}`, "approved", `en value ${ROWS}`]);
  });
}
