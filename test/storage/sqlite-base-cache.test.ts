/**
 * The base language's rows kept between XLIFF pulls (storage/sqlite/base-cache.ts): read after a
 * pull that missed, a page a turn in a snapshot of its own; used while the base's export-version
 * tag is the one read with them, in the reader's own snapshot; the rows a pull gives are the same
 * as a read's either way.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import type { SourcedRow } from "../../core/types.ts";
import { createBaseCache } from "../../storage/sqlite/base-cache.ts";
import { createExportStream } from "../../storage/sqlite/export-stream.ts";
import { createExportBumps, createExportVersions } from "../../storage/sqlite/export-versions.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { createStatements } from "../../storage/sqlite/statements.ts";
import { T, tempDatabaseFile } from "./sqlite-import-fixtures.ts";
import { gappedPairs, keyOf, seedPairedProject } from "./sqlite-paired-seed.ts";

/** Several pages of the export (1,000 rows) and of the fill (2,500). */
const KEYS = 6100;

/** Counts the pages the fill reads on `connection` (its statements are the ones with a LIMIT). */
function countFillPages(connection: Database): { pages: number } {
  const count = { pages: 0 };
  const prepare = connection.prepare.bind(connection);
  connection.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (/^SELECT key, value FROM translations[\s\S]*LIMIT \?/.test(sql)) {
      const all = statement.all.bind(statement);
      statement.all = ((...args: Parameters<typeof all>) => {
        count.pages++;
        return all(...args);
      }) as typeof statement.all;
    }
    return statement;
  }) as typeof connection.prepare;
  return count;
}

async function open() {
  const file = tempDatabaseFile("parlance-sqlite-base-cache-");
  const db = new Database(file);
  const exportConnection = new Database(file);
  const storage = createSqliteStorage(db, { exportConnection });
  await seedPairedProject({ db, storage }, { keys: KEYS, has: gappedPairs, tag: "v1" });
  // The export stream on a connection of its own, with a cache the tests can look into.
  const connection = new Database(file);
  const cache = createBaseCache();
  const exports = createExportStream(connection, 1000, { cache });
  const stream = async () => [...(exports.open("p1", "fr", "en") ?? [])].map((r) => ({ ...r }));
  const whole = async () =>
    ((await storage.translations.listForExportWithSource?.("p1", "fr", "en", null)) ?? []).map((r) => ({
      ...r,
    }));
  /** Until the fill a missed pull left behind has kept the base at `tag` (a page a turn). */
  const kept = async (tag: string) => {
    for (let waited = 0; waited < 5000 && !cache.get("p1", "en", tag); waited += 10) await Bun.sleep(10);
    expect(cache.get("p1", "en", tag)).toBeDefined();
    expect(connection.inTransaction).toBe(false);
  };
  return {
    db,
    exportConnection,
    connection,
    cache,
    stream,
    whole,
    kept,
    async teardown() {
      exports.close();
      connection.close();
      await storage.close();
      exportConnection.close();
      db.close();
    },
  };
}

const sources = (rows: SourcedRow[]) => rows.map((r) => r.source);

test("a pull after the fill gives the kept rows while the base's tag holds, and reads again once it changes", async () => {
  const { db, stream, whole, kept, teardown } = await open();
  try {
    const read = await whole();
    expect(await stream()).toEqual(read);
    await kept("v1");
    // Paired from the kept rows: the same rows as a read, keys on one side only included.
    expect(await stream()).toEqual(read);
    expect(read.find((r) => r.key === keyOf(14))?.source).toBeNull();
    // A change that left the tag as it was (no writer does this) shows the pull used the kept rows.
    db.run("UPDATE translations SET value = 'unseen' WHERE project_id = 'p1' AND language = 'en'");
    expect(sources(await stream())).toEqual(sources(read));
    // Another connection's write changes the tag in its transaction: the next pull reads it.
    db.run("UPDATE export_versions SET tag = 'v2' WHERE project_id = 'p1' AND language = 'en'");
    const changed = await stream();
    expect(changed).toEqual(await whole());
    expect(changed.filter((r) => r.source !== null).every((r) => r.source === "unseen")).toBe(true);
    await kept("v2");
    expect(await stream()).toEqual(changed);
  } finally {
    await teardown();
  }
});

test("a pull while the base is being kept reads it itself; the fill goes on after it", async () => {
  const { db, connection, stream, whole, kept, teardown } = await open();
  try {
    const read = await whole();
    expect(await stream()).toEqual(read);
    // Before the fill's first turn: the pull takes the connection and reads the base itself.
    expect(await stream()).toEqual(read);
    expect(connection.inTransaction).toBe(false);
    await kept("v1");
    db.run("UPDATE translations SET value = 'unseen' WHERE project_id = 'p1' AND language = 'en'");
    expect(sources(await stream())).toEqual(sources(read));
  } finally {
    await teardown();
  }
});

test("a base without a tag is never kept", async () => {
  const { db, connection, stream, whole, teardown } = await open();
  try {
    db.run("DELETE FROM export_versions WHERE language = 'en'");
    await stream();
    await Bun.sleep(50);
    expect(connection.inTransaction).toBe(false);
    db.run("UPDATE translations SET value = 'seen' WHERE project_id = 'p1' AND language = 'en'");
    const rows = await stream();
    expect(rows).toEqual(await whole());
    expect(rows.some((r) => r.source === "seen")).toBe(true);
  } finally {
    await teardown();
  }
});

test("the fill reads a page a turn, each in a snapshot of its own, paused while an export reads; pages of an older tag are never kept", async () => {
  const { db, exportConnection, teardown } = await open();
  const cache = createBaseCache();
  const fill = countFillPages(exportConnection);
  const exports = createExportStream(exportConnection, 1000, { cache, fillRows: 50 });
  const read = () => [...(exports.open("p1", "fr", "en") ?? [])];
  const keptAt = (tag: string) => cache.get("p1", "en", tag)?.rows;
  try {
    read();
    // Some of the base read at v1, not all of it.
    for (let waited = 0; waited < 2000 && fill.pages === 0; waited++) await Bun.sleep(1);
    expect(fill.pages).toBeGreaterThan(0);
    // Between turns no snapshot is held: the log can be checkpointed whole.
    expect(exportConnection.inTransaction).toBe(false);
    expect(db.query("PRAGMA wal_checkpoint(TRUNCATE)").get()).toMatchObject({ busy: 0 });
    const held = exports.open("p1", "fr", "en")?.[Symbol.iterator]();
    held?.next();
    const pagesBefore = fill.pages;
    // Another connection's write, its tag in the same transaction, while the fill is partway.
    db.transaction(() => {
      db.run("UPDATE translations SET value = 'new' WHERE project_id = 'p1' AND language = 'en'");
      db.run("UPDATE export_versions SET tag = 'v2' WHERE project_id = 'p1' AND language = 'en'");
    })();
    await Bun.sleep(20);
    // Paused: the fill's turns left the export's connection alone, its snapshot still held.
    expect(fill.pages).toBe(pagesBefore);
    expect(exportConnection.inTransaction).toBe(true);
    expect(keptAt("v1")).toBeUndefined();
    const rest: SourcedRow[] = [];
    for (let r = held?.next(); r && !r.done; r = held?.next()) rest.push({ ...r.value });
    expect(rest.length).toBeGreaterThan(1000);
    expect(rest.some((r) => r.source === "new")).toBe(false);
    await Bun.sleep(50);
    // The tag changed under the fill: neither tag is kept from its pages.
    expect(keptAt("v1")).toBeUndefined();
    expect(keptAt("v2")).toBeUndefined();
    read();
    for (let waited = 0; waited < 5000 && !keptAt("v2"); waited += 10) await Bun.sleep(10);
    expect(keptAt("v2")?.length).toBe(KEYS - Math.ceil(KEYS / 7));
    expect(keptAt("v2")?.every((r) => r.value === "new")).toBe(true);
  } finally {
    exports.close();
    await teardown();
  }
});

test("a base past the budget is given up as its pages pass it, and not read again at the same tag", async () => {
  const { db, exportConnection, whole, teardown } = await open();
  // About 120 estimated bytes a row of the base: 100 rows fit, the base's 5,228 do not.
  const cache = createBaseCache(100 * 120);
  const fill = countFillPages(exportConnection);
  const exports = createExportStream(exportConnection, 1000, { cache, fillRows: 50 });
  const read = () => [...(exports.open("p1", "fr", "en") ?? [])].map((r) => ({ ...r }));
  const settled = async () => {
    for (let last = -1; last !== fill.pages; ) {
      last = fill.pages;
      await Bun.sleep(20);
    }
  };
  try {
    expect(read()).toEqual(await whole());
    await settled();
    // Stopped on the page that passed the budget (the third), not after all 105.
    expect(fill.pages).toBe(3);
    expect(cache.tooBig("p1", "en", "v1")).toBe(true);
    expect(cache.get("p1", "en", "v1")).toBeUndefined();
    expect(read()).toEqual(await whole());
    await settled();
    expect(fill.pages).toBe(3);
    // A new tag may fit again: read once more.
    db.run("UPDATE export_versions SET tag = 'v2' WHERE project_id = 'p1' AND language = 'en'");
    expect(read()).toEqual(await whole());
    await settled();
    expect(fill.pages).toBe(6);
    expect(cache.tooBig("p1", "en", "v2")).toBe(true);
  } finally {
    exports.close();
    await teardown();
  }
});

test("a miss on another project while a fill runs is filled after it", async () => {
  const { db, exportConnection, teardown } = await open();
  db.run(
    `INSERT INTO projects (id, org_id, name, base_language, languages, created_at)
     VALUES ('p2', 'o1', 'P2', 'en', '["en","fr"]', ?)`,
    [T],
  );
  db.run(
    `INSERT INTO translations (id, project_id, language, key, value, status, updated_at)
     SELECT 'p2-' || id, 'p2', language, key, value, status, updated_at FROM translations WHERE project_id = 'p1'`,
  );
  db.run(
    "INSERT INTO export_versions (project_id, language, tag) VALUES ('p2', 'en', 'w1'), ('p2', 'fr', 'w1')",
  );
  const cache = createBaseCache();
  const exports = createExportStream(exportConnection, 1000, { cache, fillRows: 500 });
  try {
    [...(exports.open("p1", "fr", "en") ?? [])];
    [...(exports.open("p2", "fr", "en") ?? [])];
    for (let waited = 0; waited < 5000 && !cache.get("p2", "en", "w1"); waited += 10) await Bun.sleep(10);
    expect(cache.get("p1", "en", "v1")).toBeDefined();
    expect(cache.get("p2", "en", "w1")).toBeDefined();
  } finally {
    exports.close();
    await teardown();
  }
});

test("the cache: by tag, its budget, least recently used first, dropped on a bump here", () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ key: keyOf(i), value: "v" }));
  // Keys of 6 characters and values of 1: 100 rows are 100 × (96 + 2 × 7) bytes estimated.
  const cache = createBaseCache(2 * 100 * 110);
  cache.set("p1", "en", { tag: "a", rows: rows(100) });
  expect(cache.get("p1", "en", "b")).toBeUndefined();
  expect(cache.get("p1", "en", "a")?.rows.length).toBe(100);
  cache.set("p2", "en", { tag: "a", rows: rows(100) });
  cache.get("p1", "en", "a");
  cache.set("p3", "en", { tag: "a", rows: rows(100) });
  expect(cache.get("p2", "en", "a")).toBeUndefined();
  expect(cache.get("p1", "en", "a")).toBeDefined();
  cache.set("p4", "en", { tag: "a", rows: rows(300) });
  expect(cache.get("p4", "en", "a")).toBeUndefined();
  expect(cache.get("p1", "en", "a")).toBeDefined();
  cache.drop("p1", ["en"]);
  expect(cache.get("p1", "en", "a")).toBeUndefined();

  const db = new Database(":memory:");
  db.run(
    "CREATE TABLE export_versions (project_id TEXT, language TEXT, tag TEXT, PRIMARY KEY (project_id, language))",
  );
  const bumped: string[][] = [];
  const bumps = createExportBumps();
  const stop = bumps.listen((projectId, languages) => bumped.push([projectId, ...languages]));
  createExportVersions(createStatements(db), bumps).bump("p1", ["en", "en", "fr"]);
  // Another storage's bumps are not this one's.
  createExportVersions(createStatements(db), createExportBumps()).bump("p1", ["it"]);
  stop();
  createExportVersions(createStatements(db), bumps).bump("p1", ["de"]);
  expect(bumped).toEqual([["p1", "en", "fr"]]);
  db.close();
});
