/**
 * The import thread's own parts: `each` (per row, a statement and the ones that depend on what it
 * returned), parameters that travel as JSON text or cloned without changing, its nice value, and a
 * rewrite of rows that exist written there exactly as on the second connection.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import type { ImportCommit } from "../../core/ports.ts";
import { createImportThread, IMPORT_THREAD_NICE } from "../../storage/sqlite/import-thread.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { commitOf, seedClaimedJob, T, tempDatabaseFile } from "./sqlite-import-fixtures.ts";

test("each runs per row the first statement, then the found or the missing ones with what it returned", async () => {
  const file = tempDatabaseFile("parlance-thread-each-");
  const db = new Database(file);
  db.run("PRAGMA journal_mode = WAL");
  db.run("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT, n INTEGER)");
  db.run("CREATE TABLE log (k TEXT, v TEXT, n INTEGER, tag TEXT)");
  db.run("INSERT INTO t VALUES ('a', 'old', 1), ('b', 'old', 5)");
  const thread = createImportThread(file);
  try {
    await thread.begin();
    thread.each(
      {
        first: { sql: "UPDATE t SET v = ?1, n = n + 1 WHERE k = ?2 RETURNING n", params: [2, 1] },
        found: [{ sql: "INSERT INTO log VALUES (?1, ?2, ?3, ?4)", params: [1, 2, 3, 0] }],
        missing: [
          { sql: "INSERT INTO t VALUES (?1, ?2, 1)", params: [1, 2] },
          { sql: "INSERT INTO log VALUES (?1, ?2, NULL, 'new')", params: [1, 2] },
        ],
      },
      ["updated"],
      [
        ["a", "A"],
        ["c", "C"],
        ["b", "B"],
      ],
    );
    await thread.commit();
    expect(db.query("SELECT * FROM t ORDER BY k").all()).toEqual([
      { k: "a", v: "A", n: 2 },
      { k: "b", v: "B", n: 6 },
      { k: "c", v: "C", n: 1 },
    ]);
    expect(db.query("SELECT * FROM log ORDER BY k").all()).toEqual([
      { k: "a", v: "A", n: 2, tag: "updated" },
      { k: "b", v: "B", n: 6, tag: "updated" },
      { k: "c", v: "C", n: null, tag: "new" },
    ]);
  } finally {
    await thread.close();
    db.close();
  }
});

test("parameters reach the thread unchanged, as JSON text or cloned (bytes, a bigint, a view of part of a buffer)", async () => {
  const file = tempDatabaseFile("parlance-thread-params-");
  const db = new Database(file);
  db.run("PRAGMA journal_mode = WAL");
  db.run("CREATE TABLE p (side TEXT, a, b, c, d)");
  const buffer = new Uint8Array([9, 1, 2, 3, 9]);
  const cases: unknown[][] = [
    ["lone \ud800 surrogate", "nul \u0000 inside", 2 ** 53 - 1, null],
    [2n ** 62n, buffer.subarray(1, 4), -0.5, "é"],
  ];
  const thread = createImportThread(file);
  try {
    await thread.begin();
    for (const c of cases) thread.send("INSERT INTO p VALUES ('thread', ?, ?, ?, ?)", c as never);
    thread.each(
      {
        first: { sql: "SELECT 1", params: [] },
        found: [{ sql: "INSERT INTO p VALUES ('each', ?, ?, ?, ?)", params: [0, 1, 2, 3] }],
        missing: [],
      },
      [],
      cases as never,
    );
    await thread.commit();
    for (const c of cases) db.run("INSERT INTO p VALUES ('here', ?, ?, ?, ?)", c as never);
    const side = (name: string) =>
      db.query("SELECT a, b, c, d FROM p WHERE side = ? ORDER BY rowid").values(name);
    const here = side("here");
    expect(here[1]?.[1]).toEqual(new Uint8Array([1, 2, 3]));
    expect(side("thread")).toEqual(here);
    expect(side("each")).toEqual(here);
  } finally {
    await thread.close();
    db.close();
  }
});

test.if(process.platform === "linux")(
  "the thread runs at its own nice value; the thread that answers requests keeps 0",
  async () => {
    // Thread id and nice value (field 19 of /proc/…/stat) of each thread of this process; a thread
    // of an earlier test may end between the listing and the read, and is left out.
    const niceOf = () =>
      readdirSync("/proc/self/task").flatMap((tid) => {
        let stat: string;
        try {
          stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
        } catch {
          return [];
        }
        return [[tid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])] as const];
      });
    const before = new Set(niceOf().map(([tid]) => tid));
    const file = tempDatabaseFile("parlance-thread-nice-");
    const thread = createImportThread(file);
    try {
      await thread.begin();
      await thread.rollback();
      const started = niceOf().filter(([tid]) => !before.has(tid));
      expect(started.map(([, nice]) => nice)).toContain(IMPORT_THREAD_NICE);
      expect(readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ")[16]).toBe("0");
    } finally {
      await thread.close();
    }
  },
);

/** Job j1's rewrite of `fr`: every row existed when it planned, but `gone` was deleted since. */
function rewriteOf(n: number, gone: number): ImportCommit {
  const c = commitOf(n);
  const a = c.audit as NonNullable<ImportCommit["audit"]>;
  const writes = c.writes.map((w, i) => ({ ...w, value: `Nouveau ${i}` }));
  return {
    ...c,
    writes,
    summary: { created: 0, updated: n },
    audit: {
      ...a,
      activity: { ...a.activity, id: "a2" },
      previous: c.writes.map((w, i) =>
        i === gone ? { value: "deleted since", status: "approved" } : { value: w.value, status: w.status },
      ),
      warnings: writes.map((_, i) => (i === 3 ? [{ code: "empty" as const, message: "x" }] : [])),
    },
  } as ImportCommit;
}

test("a rewrite of rows that exist is written on the thread as on the second connection: rows, versions and entries", async () => {
  const n = 1_200;
  const results = [];
  for (const side of ["connection", "thread"] as const) {
    const file = tempDatabaseFile(`parlance-thread-rewrite-${side}-`);
    const db = new Database(file);
    const importConnection = new Database(file);
    const importThread = side === "thread" ? createImportThread(file) : undefined;
    const storage = createSqliteStorage(db, { importConnection, importThread });
    try {
      await seedClaimedJob({ db, storage });
      expect(await storage.jobs.complete("j1", "r1", commitOf(n), T)).toBe(true);
      db.run("DELETE FROM translations WHERE key = 'k7'");
      db.run("UPDATE jobs SET status = 'running', run_id = 'r2' WHERE id = 'j1'");
      expect(await storage.jobs.complete("j1", "r2", rewriteOf(n, 7), T)).toBe(true);
      results.push({
        rows: db
          .query(
            "SELECT id, key, value, status, version, warnings, search, filled, flagged FROM translations ORDER BY key",
          )
          .all(),
        history: db
          .query(
            `SELECT record_id, key, old_value, old_status, new_value, new_status, version, event_id, job_id
             FROM record_history ORDER BY key, version, rowid`,
          )
          .all(),
      });
    } finally {
      await storage.close();
      await importThread?.close();
      importConnection.close();
      db.close();
    }
  }
  const [connection, thread] = results;
  expect(thread?.rows).toHaveLength(n);
  expect(thread?.history).toHaveLength(2 * n);
  expect(thread).toEqual(connection);
});
