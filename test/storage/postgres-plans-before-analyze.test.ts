/**
 * Reads that pair a language's records with the base's by key never loop over one side for each
 * row of the other, whatever the planner knows of the table. Before the first ANALYZE (a new
 * instance's first import, until autovacuum comes by, or never where it is off) it counts one row
 * a side; left to itself it then compares every pair: 15 s for 5,000 keys, hours for 50,000.
 * The XLIFF read merges both sides sorted, coverage hashes one side, and a pull of selected
 * records probes the base's key index once per record.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Sql } from "postgres";
import type { Storage } from "../../core/ports.ts";
import type { Project } from "../../core/types.ts";
import { COVERAGE_COUNT_SETTINGS, COVERAGE_COUNT_SQL } from "../../storage/postgres/coverage.ts";
import {
  exportRead,
  SELECTED_SOURCED_ROWS_SQL,
  SOURCED_ROWS_SQL,
} from "../../storage/postgres/export-read.ts";
import { FIRST_ANALYZE_ROWS } from "../../storage/postgres/first-analyze.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { importRows } from "./import-rows.ts";
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

  const text = (rows: readonly Record<string, unknown>[]) =>
    rows.map((r) => String(r["QUERY PLAN"])).join("\n");
  const plan = async (): Promise<string> =>
    text(
      await exportRead(sql, (tx) => tx.unsafe(`EXPLAIN ${SOURCED_ROWS_SQL}`, ["p", "fr", "en"]), {
        mergeJoin: true,
      }),
    );
  /** The coverage count's plan, under the settings its transaction runs with. */
  const coveragePlan = async (): Promise<string> =>
    text(
      await sql.begin(async (tx) => {
        await tx.unsafe(`SELECT ${COVERAGE_COUNT_SETTINGS}`);
        return tx.unsafe(`EXPLAIN ${COVERAGE_COUNT_SQL}`, ["p", "en"]);
      }),
    );

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
    expect(await coveragePlan()).not.toContain("Nested Loop");
  });

  test("before any ANALYZE, coverage counts without a loop over the project's rows", async () => {
    const text = await coveragePlan();
    expect(text).toContain("Hash Join");
    expect(text).not.toContain("Nested Loop");
  });

  test("selected records probe the base's key index, one probe each, and carry their sources", async () => {
    const ids = ["fr-7", "fr-1", "fr-1999", "en-3", "missing"];
    const explained = text(await sql.unsafe(`EXPLAIN ${SELECTED_SOURCED_ROWS_SQL}`, ["p", "fr", "en", ids]));
    expect(explained).toContain("Index Scan using translations_key on translations b");
    expect(explained).not.toMatch(/Join Filter: \(.*key = /);
    const read = await sql.unsafe(SELECTED_SOURCED_ROWS_SQL, ["p", "fr", "en", ids]);
    expect(read.map((r) => [r.key, r.value, r.source])).toEqual([
      ["key.00001", "fr value 1", "en value 1"],
      ["key.00007", "fr value 7", "en value 7"],
      ["key.01999", "fr value 1999", "en value 1999"],
    ]);
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

if (await postgresReachable()) {
  describe("the first large import analyzes the table", () => {
    let schema: TestSchema;
    let sql: Sql;
    let s: Storage;
    const project: Project = {
      id: "p",
      orgId: "o",
      name: "P",
      baseLanguage: "en",
      languages: ["en"],
      deletedAt: null,
      createdAt: T,
    };
    beforeEach(async () => {
      schema = await createTestSchema();
      sql = schema.connect(2);
      s = await createPostgresStorage(sql);
      await s.orgs.create({ id: "o", name: "Org", maxTranslations: null, createdAt: T });
      await s.projects.create(project);
    });
    afterEach(() => schema.drop());

    const statistics = async () =>
      (
        await sql`SELECT count(*)::int AS n FROM pg_stats
          WHERE schemaname = current_schema() AND tablename = 'translations'`
      )[0]?.n;
    const writes = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => ({
        id: `id-${from + i}`,
        key: `key.${from + i}`,
        value: `value ${from + i}`,
        status: "approved" as const,
      }));

    test("an import below the threshold leaves it to autovacuum", async () => {
      await importRows(s, project, writes(FIRST_ANALYZE_ROWS - 1));
      expect(await statistics()).toBe(0);
    });

    test("the first import of the threshold or more commits with statistics of its rows", async () => {
      await importRows(s, project, writes(FIRST_ANALYZE_ROWS));
      expect(await statistics()).toBeGreaterThan(0);
      const [counted] =
        await sql`SELECT reltuples::int AS n FROM pg_class WHERE oid = 'translations'::regclass`;
      expect(counted?.n).toBe(FIRST_ANALYZE_ROWS);
      // Later imports leave the statistics to autovacuum: the count stays as the first one left it.
      await importRows(s, project, writes(FIRST_ANALYZE_ROWS, FIRST_ANALYZE_ROWS));
      const [after] =
        await sql`SELECT reltuples::int AS n FROM pg_class WHERE oid = 'translations'::regclass`;
      expect(after?.n).toBe(FIRST_ANALYZE_ROWS);
    });
  });
}
