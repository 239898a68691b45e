/**
 * Reads that pair a language's records with the base's by key never loop over one side for each
 * row of the other, whatever the planner knows of the table. Before the first ANALYZE (a new
 * instance's first import, until autovacuum comes by, or never where it is off) it counts one row
 * a side; left to itself it then compares every pair: 15 s for 5,000 keys, hours for 50,000.
 * The XLIFF read merges both sides sorted, coverage hashes one side, and a pull of selected
 * records probes the base's key index once per record.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import postgres, { type Sql } from "postgres";
import type { Storage } from "../../core/ports.ts";
import type { Project } from "../../core/types.ts";
import { COVERAGE_COUNT_SETTINGS, COVERAGE_COUNT_SQL } from "../../storage/postgres/coverage.ts";
import {
  exportRead,
  SELECTED_SOURCED_ROWS_SQL,
  SOURCED_ROWS_SQL,
} from "../../storage/postgres/export-read.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { keyDigests } from "../../storage/postgres/key-digest.ts";
import { createTestSchema, POSTGRES_URL, postgresReachable, type TestSchema } from "./postgres-setup.ts";

const T = "2026-01-01T00:00:00.000Z";
const ROWS = 2000;

/** EXPLAIN's rows as one text. */
const text = (rows: readonly Record<string, unknown>[]) =>
  rows.map((r) => String(r["QUERY PLAN"])).join("\n");

/** Project p (base en, and fr) of organization o. */
const PROJECT: Project = {
  id: "p",
  orgId: "o",
  name: "P",
  baseLanguage: "en",
  languages: ["en", "fr"],
  deletedAt: null,
  createdAt: T,
};

/** A store on `sql` holding PROJECT with ROWS keys in en and fr, never analyzed. */
async function seeded(sql: Sql): Promise<Storage> {
  const s = await createPostgresStorage(sql);
  await s.orgs.create({ id: "o", name: "Org", maxTranslations: null, createdAt: T });
  await s.projects.create(PROJECT);
  // Straight into the table: what matters here is that nothing has analyzed it yet.
  await sql`
    INSERT INTO translations (id, project_id, language, key, value, status, updated_at)
    SELECT l || '-' || i, 'p', l, 'key.' || lpad(i::text, 5, '0'), l || ' value ' || i, 'approved', ${T}
    FROM generate_series(1, ${ROWS}) AS i, unnest(ARRAY['en', 'fr']) AS l`;
  return s;
}

if (await postgresReachable()) {
  let schema: TestSchema;
  let sql: Sql;
  beforeEach(async () => {
    schema = await createTestSchema();
    sql = schema.connect(2);
    await seeded(sql);
  });
  afterEach(() => schema.drop());

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
    const planned = await plan();
    expect(planned).toContain("Merge Left Join");
    expect(planned).not.toContain("Nested Loop");
  });

  test("after ANALYZE too", async () => {
    await sql`ANALYZE translations`;
    const planned = await plan();
    expect(planned).toContain("Merge Left Join");
    expect(planned).not.toContain("Nested Loop");
    expect(await coveragePlan()).not.toContain("Nested Loop");
  });

  test("before any ANALYZE, coverage counts without a loop over the project's rows", async () => {
    const planned = await coveragePlan();
    expect(planned).toContain("Hash Join");
    expect(planned).not.toContain("Nested Loop");
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
  describe("records looked up by a list of keys", () => {
    let schema: TestSchema;
    let sql: Sql;
    let s: Storage;
    /** Every statement the store sends, with its parameters. */
    let sent: { query: string; params: unknown[] }[];
    beforeEach(async () => {
      schema = await createTestSchema();
      sent = [];
      sql = postgres(POSTGRES_URL, {
        max: 2,
        connection: { search_path: schema.name },
        onnotice: () => {},
        debug: (_connection, query, params) => {
          sent.push({ query, params: params as unknown[] });
        },
      });
      s = await seeded(sql);
      sent = [];
    });
    afterEach(async () => {
      await sql.end({ timeout: 5 });
      await schema.drop();
    });

    /**
     * The plan of each statement sent that looks keys up by digest: the list must be a constant
     * (hashed when it filters, or probing translations_key), never a value computed while the
     * statement runs (an InitPlan), which the planner searched once per row.
     */
    const digestPlans = async (): Promise<string[]> => {
      const lookups = sent.filter(
        (x) => x.query.includes("parlance_key_digest") && !x.query.startsWith("EXPLAIN"),
      );
      expect(lookups.length).toBeGreaterThan(0);
      const plans: string[] = [];
      for (const x of lookups) plans.push(text(await sql.unsafe(`EXPLAIN ${x.query}`, x.params as never[])));
      return plans;
    };

    test("the digests computed here are the database's", async () => {
      const keys = ["key.00001", "é", "日本語", "𝄞 music", ""];
      const [row] = await sql.unsafe(
        "SELECT array_agg(parlance_key_digest(k) ORDER BY n)::text[] AS d FROM unnest($1::text[]) WITH ORDINALITY AS u(k, n)",
        [keys] as never[],
      );
      expect(row?.d).toEqual(keyDigests(keys));
    });

    test("reading every key before any ANALYZE hashes or probes the list", async () => {
      const keys = Array.from({ length: ROWS }, (_, i) => `key.${String(i + 1).padStart(5, "0")}`);
      const read = await s.records.read("p", keys, ["fr"]);
      expect(read.length).toBe(ROWS);
      for (const plan of await digestPlans()) {
        expect(plan).not.toContain("InitPlan");
        expect(plan).not.toMatch(/parlance_key_digest\(\w*\.?key\) = ANY \(\$\d+\)/);
      }
    });

    test("browsing with a search that matches every key, before any ANALYZE, hashes or probes the list", async () => {
      const page = await s.records.browse({
        projectId: "p",
        baseLanguage: "en",
        languages: ["fr"],
        language: "fr",
        projectLanguages: ["en", "fr"],
        filter: { q: "value" },
        after: null,
        limit: 50,
      });
      expect(page.rows.length).toBe(50);
      expect(page.counts.total).toBe(ROWS);
      for (const plan of await digestPlans()) {
        expect(plan).not.toContain("InitPlan");
        expect(plan).not.toMatch(/parlance_key_digest\(\w*\.?key\) = ANY \(\$\d+\)/);
      }
    });
  });
}
