/**
 * XLIFF's rows read page by page on the export connection (storage/sqlite/export-stream.ts): the
 * same rows as the whole read, one snapshot for all pages (a write committed meanwhile is not
 * seen), one export at a time on the connection, and a transaction that ends when the rows are
 * consumed, dropped, or held past the limit, so it never keeps the log from being checkpointed.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import type { SourcedRow } from "../../core/types.ts";
import { createExportStream } from "../../storage/sqlite/export-stream.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { tempDatabaseFile } from "./sqlite-import-fixtures.ts";
import { gappedPairs, keyOf, seedPairedProject } from "./sqlite-paired-seed.ts";

const KEYS = 2600;

async function open() {
  const file = tempDatabaseFile("parlance-sqlite-export-");
  const db = new Database(file);
  const exportConnection = new Database(file);
  const storage = createSqliteStorage(db, { exportConnection });
  await seedPairedProject({ db, storage }, { keys: KEYS, has: gappedPairs });
  return {
    db,
    exportConnection,
    storage,
    async teardown() {
      await storage.close();
      exportConnection.close();
      db.close();
    },
  };
}

const plain = (rows: Iterable<SourcedRow>) => [...rows].map((r) => ({ ...r }));

test("the paged rows are the whole read's, sources paired across pages", async () => {
  const { storage, teardown } = await open();
  try {
    const whole = await storage.translations.listForExportWithSource?.("p1", "fr", "en", null);
    const paged = await storage.translations.streamForExportWithSource?.("p1", "fr", "en");
    if (!whole || !paged) throw new Error("the SQLite store reads sources and pages");
    expect(whole.length).toBeGreaterThan(2000);
    expect(plain(paged)).toEqual(plain(whole));
    expect(whole.find((r) => r.key === keyOf(14))?.source).toBeNull();
  } finally {
    await teardown();
  }
});

test("one snapshot for every page; the connection is free again once the rows are read", async () => {
  const { db, exportConnection, storage, teardown } = await open();
  try {
    const paged = await storage.translations.streamForExportWithSource?.("p1", "fr", "en");
    if (!paged) throw new Error("no stream");
    const it = paged[Symbol.iterator]();
    expect(it.next().value?.value).toBe("fr 1");
    // Busy: a second export reads whole.
    expect(await storage.translations.streamForExportWithSource?.("p1", "fr", "en")).toBeNull();
    db.run("UPDATE translations SET value = 'changed' WHERE project_id = 'p1'");
    const rest = [...{ [Symbol.iterator]: () => it }];
    expect(rest.some((r) => r.value === "changed" || r.source === "changed")).toBe(false);
    expect(exportConnection.inTransaction).toBe(false);
    const again = await storage.translations.streamForExportWithSource?.("p1", "fr", "en");
    expect([...(again ?? [])][0]?.value).toBe("changed");
  } finally {
    await teardown();
  }
});

test("a dropped read ends its transaction; an empty language reads nothing", async () => {
  const { exportConnection, storage, teardown } = await open();
  try {
    const paged = await storage.translations.streamForExportWithSource?.("p1", "fr", "en");
    const it = paged?.[Symbol.iterator]();
    it?.next();
    expect(exportConnection.inTransaction).toBe(true);
    it?.return?.();
    expect(exportConnection.inTransaction).toBe(false);
    expect([...((await storage.translations.streamForExportWithSource?.("p1", "de", "en")) ?? [0])]).toEqual(
      [],
    );
    expect(exportConnection.inTransaction).toBe(false);
  } finally {
    await teardown();
  }
});

test("a read held past the limit reads the rest at once and ends its transaction", async () => {
  const { db, exportConnection, teardown } = await open();
  const stream = createExportStream(exportConnection, 20);
  try {
    const rows = stream.open("p1", "fr", "en");
    const it = rows?.[Symbol.iterator]();
    expect(it?.next().value?.key).toBe(keyOf(1));
    await Bun.sleep(60);
    expect(exportConnection.inTransaction).toBe(false);
    // The log can be checkpointed whole: no reader holds an older snapshot.
    db.run("UPDATE translations SET value = 'later' WHERE project_id = 'p1'");
    const checkpoint = db.query("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number };
    expect(checkpoint.busy).toBe(0);
    const rest = [...{ [Symbol.iterator]: () => it as Iterator<SourcedRow> }];
    expect(rest.length).toBe(KEYS - Math.ceil(KEYS / 11) - 1);
    expect(rest.every((r) => r.value !== "later")).toBe(true);
  } finally {
    stream.close();
    await teardown();
  }
});
