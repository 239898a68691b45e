/**
 * SQLite finds a record's history through a chain (migration 13: the record keeps its last entry's
 * seq, each entry its predecessor's) instead of an index of record ids. Every way a record changes
 * must keep the chain whole: the same story on the in-memory store and on SQLite (imports on the
 * main connection, on the import connection, on the import thread) pages through the same entries;
 * and a database with history migrated to 13 reads the same history as before.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import type { Storage } from "../../core/index.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { createImportThread, type ImportThread } from "../../storage/sqlite/import-thread.ts";
import { createSqliteStorage, migrateSqlite, SQLITE_MIGRATIONS } from "../../storage/sqlite/index.ts";
import { embeddedProject } from "../support/embedded-project.ts";
import { ownerOf } from "../support/owner-principal.ts";
import { tempDatabaseFile } from "./sqlite-import-fixtures.ts";

type Side = "memory" | "main connection" | "import connection" | "import thread";

async function story(side: Side) {
  let storage: Storage;
  const closers: (() => unknown)[] = [];
  if (side === "memory") storage = createMemoryStorage();
  else {
    const file = tempDatabaseFile("parlance-chain-");
    const db = new Database(file);
    const importConnection = side === "main connection" ? undefined : new Database(file);
    const importThread: ImportThread | undefined =
      side === "import thread" ? createImportThread(file) : undefined;
    storage = createSqliteStorage(db, { importConnection, importThread });
    closers.push(
      () => importThread?.close(),
      () => importConnection?.close(),
      () => db.close(),
    );
  }
  const { parlance, org, project, app } = await embeddedProject(storage, ["fr"]);
  const p = ownerOf(org.id);
  const r = parlance.records;
  const push = async (language: string, doc: Record<string, string>, importMode = "merge") => {
    await app.push({ projectId: project.id, language, content: JSON.stringify(doc), importMode });
    await parlance.idle();
  };
  try {
    await push("en", { a: "A", b: "B", c: "C", d: "D" });
    await push("fr", { a: "a1", b: "b1", c: "c1", d: "d1" }); // new rows, in batches
    await push("fr", { a: "a2", b: "b2", c: "c2", d: "d2" }); // rows that exist, one by one
    const [gone] = await storage.records.read(project.id, ["d"], ["fr"]);
    await push("fr", { a: "a3", b: "b3", c: "c3" }, "replace"); // d deleted by the import
    await r.edit(p, project.id, { key: "a", language: "fr", value: "a4", version: 3 });
    await r.renameKey(p, project.id, { from: "b", to: "b9" });
    await r.deleteKeys(p, project.id, { keys: ["c"] });
    await r.restoreKey(p, project.id, { key: "c" });
    await push("fr", { a: "a5", b9: "b5", c: "c5", e: "e5" }); // e new beside rows that exist
    await r.deleteKeys(p, project.id, { keys: ["e"] });
    const [e] = (await storage.records.listDeleted(project.id)).filter((k) => k.key === "e");
    expect(e?.languages).toEqual(["fr"]);
    const pages: Record<string, unknown[][]> = {};
    for (const key of ["a", "b9", "c"]) {
      for (const language of ["en", "fr"]) {
        const all: unknown[][] = [];
        let cursor: string | null = null;
        do {
          const page = await r.history(p, project.id, { key, language, cursor, limit: 2 });
          all.push(
            page.data.map((x) => [x.action, x.key, x.old?.value ?? null, x.new?.value ?? null, x.version]),
          );
          cursor = page.nextCursor;
        } while (cursor !== null);
        pages[`${key}/${language}`] = all;
      }
    }
    // A record an import deleted: no row left anywhere, its history still read by its id.
    const h = await storage.records.history(gone?.id ?? "", null, 10);
    pages.gone = [h.items.map((x) => [x.action, x.oldValue, x.newValue, x.version])];
    return pages;
  } finally {
    await storage.close();
    for (const close of closers) await close();
  }
}

test("every way a record changes keeps its chain: SQLite pages through the same history as memory", async () => {
  const memory = await story("memory");
  expect(memory["a/fr"]).toEqual([
    [
      ["import", "a", "a4", "a5", 5],
      ["edit", "a", "a3", "a4", 4],
    ],
    [
      ["import", "a", "a2", "a3", 3],
      ["import", "a", "a1", "a2", 2],
    ],
    [["import", "a", null, "a1", 1]],
  ]);
  expect(memory.gone).toEqual([
    [
      ["import", "d2", null, null],
      ["import", "d1", "d2", 2],
      ["import", null, "d1", 1],
    ],
  ]);
  for (const side of ["main connection", "import connection", "import thread"] as const) {
    expect({ side, pages: await story(side) }).toEqual({ side, pages: memory });
  }
});

test("a cursor that is no entry of the record still pages from below it", async () => {
  const storage = createSqliteStorage(new Database(":memory:"));
  const { parlance, project, app } = await embeddedProject(storage, ["fr"]);
  for (const v of ["1", "2", "3", "4"]) {
    await app.push({ projectId: project.id, language: "fr", content: JSON.stringify({ k: v, other: v }) });
    await parlance.idle();
  }
  const [k] = await storage.records.read(project.id, ["k"], ["fr"]);
  const all = await storage.records.history(k?.id ?? "", null, 10);
  const seqs = all.items.map((x) => Number(x.id));
  expect(all.items.map((x) => x.newValue)).toEqual(["4", "3", "2", "1"]);
  // One above the second entry: the other record's entry or none, never this record's.
  const page = await storage.records.history(k?.id ?? "", String((seqs[1] as number) + 1), 2);
  expect(page.items.map((x) => x.newValue)).toEqual(["3", "2"]);
  expect(page.next).toBe(String(seqs[2]));
  const rest = await storage.records.history(k?.id ?? "", page.next, 2);
  expect(rest.items.map((x) => x.newValue)).toEqual(["1"]);
  expect(rest.next).toBeNull();
  await storage.close();
});

test("migration 13 on a database with history: live, deleted and gone records read the same entries", async () => {
  const db = new Database(":memory:");
  migrateSqlite(
    db,
    SQLITE_MIGRATIONS.filter((m) => m.version < 13),
  );
  const T = "2026-01-01T00:00:00.000Z";
  db.run("INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'Org', ?)", [T]);
  db.run(
    `INSERT INTO projects (id, org_id, name, base_language, languages, created_at)
     VALUES ('p1', 'o1', 'P', 'en', '["en","fr"]', ?)`,
    [T],
  );
  db.run(
    `INSERT INTO translations (id, project_id, language, key, value, status, updated_at, version)
     VALUES ('live', 'p1', 'fr', 'k', 'v3', 'draft', ?, 3)`,
    [T],
  );
  db.run(
    `INSERT INTO deleted_records (id, project_id, language, key, value, status, version, updated_at,
       deleted_at, deleted_by)
     VALUES ('soft', 'p1', 'fr', 's', 's2', 'draft', 2, ?, ?, '{"kind":"app","name":"ci"}')`,
    [T, T],
  );
  // Entries of three records interleaved: 'gone' was deleted by an import (no row anywhere).
  const story: [string, string | null, string | null, number | null][] = [
    ["live", null, "v1", 1],
    ["gone", null, "g1", 1],
    ["soft", null, "s1", 1],
    ["live", "v1", "v2", 2],
    ["soft", "s1", "s2", 2],
    ["gone", "g1", null, null],
    ["live", "v2", "v3", 3],
    ["soft", "s2", null, null],
  ];
  for (const [id, old, now, version] of story)
    db.run(
      `INSERT INTO record_history (project_id, record_id, key, language, event_id, action, actor, at,
         old_value, old_status, new_value, new_status, version)
       VALUES ('p1', ?, ?, 'fr', 'a1', 'import', '{"kind":"app","name":"ci"}', ?, ?, ?, ?, ?, ?)`,
      [id, id, T, old, old && "draft", now, now && "draft", version],
    );
  const storage = createSqliteStorage(db);
  expect(db.query("SELECT name FROM sqlite_schema WHERE name = 'record_history_record'").all()).toEqual([]);
  const values = async (id: string, limit: number) => {
    const out: (string | null)[][] = [];
    let cursor: string | null = null;
    do {
      const page = await storage.records.history(id, cursor, limit);
      out.push(page.items.map((x) => x.newValue));
      cursor = page.next;
    } while (cursor !== null);
    return out;
  };
  expect(await values("live", 2)).toEqual([["v3", "v2"], ["v1"]]);
  expect(await values("soft", 10)).toEqual([[null, "s2", "s1"]]);
  expect(await values("gone", 1)).toEqual([[null], ["g1"]]);
  expect(await values("nobody", 10)).toEqual([[]]);
  // A restore after the migration continues the deleted record's chain.
  const activity = {
    id: "a2",
    projectId: "p1",
    action: "key.restore" as const,
    actor: { kind: "app" as const, name: "ci" },
    jobId: null,
    language: null,
    key: "s",
    detail: {},
    at: T,
  };
  expect(await storage.records.restoreKey("p1", "s", activity)).toBe("restored");
  expect(await values("soft", 10)).toEqual([["s2", null, "s2", "s1"]]);
  await storage.close();
});
