/**
 * The base kept between XLIFF pulls (storage/sqlite/base-cache.ts) never outlives a write: the base
 * is kept, then changed through each writing path (an edit, a rename, a deletion, a restore, an
 * import), and the next pull carries the change. These hold with or without the cache; they guard
 * against a path that writes the base without changing its tag. Also: a storage's bumps drop its
 * own kept bases only.
 */
import { Database } from "bun:sqlite";
import { afterEach, expect, test } from "bun:test";
import { createParlance } from "../../adapters/create-parlance.ts";
import type { Parlance, Storage } from "../../core/index.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { ownerOf } from "../support/owner-principal.ts";
import { T, tempDatabaseFile } from "./sqlite-import-fixtures.ts";
import { keyOf, seedPairedProject } from "./sqlite-paired-seed.ts";

/** Two turns of the fill (2,500 rows a turn). */
const KEYS = 3000;
const content = (language: string) =>
  JSON.stringify(Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [keyOf(i), `${language} ${i}`])));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function openStorage(): { db: Database; storage: Storage } {
  const file = tempDatabaseFile("parlance-sqlite-base-kept-");
  const db = new Database(file);
  const exportConnection = new Database(file);
  const storage = createSqliteStorage(db, { exportConnection });
  cleanups.push(async () => {
    await storage.close();
    exportConnection.close();
    db.close();
  });
  return { db, storage };
}

const rowsOf = (rows: Iterable<{ key: string; value: string; status: string; source: string | null }>) =>
  [...rows].map((r) => ({ key: r.key, value: r.value, status: r.status, source: r.source }));

/** A streamed pull's rows, and a whole read's on the main connection (never the kept base). */
const pulls = (storage: Storage, projectId: string) => ({
  stream: async () =>
    rowsOf((await storage.translations.streamForExportWithSource?.(projectId, "fr", "en")) ?? []),
  whole: async () =>
    rowsOf((await storage.translations.listForExportWithSource?.(projectId, "fr", "en", null)) ?? []),
});

/** A pull, then time for the fill it left behind (two turns). */
const keep = async (stream: () => Promise<unknown>) => {
  await stream();
  await Bun.sleep(100);
};

async function world() {
  const { db, storage } = openStorage();
  const parlance = createParlance({ storage });
  cleanups.push(() => parlance.close());
  const org = await parlance.admin.createOrg("Acme");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "Web",
    baseLanguage: "en",
    languages: ["fr"],
  });
  const owner = ownerOf(org.id);
  const push = async (p: Parlance, language: string, body: string) => {
    await p.as(org.id, "ci").push({ projectId: project.id, language, content: body, status: "draft" });
    await p.idle();
  };
  await push(parlance, "en", content("en"));
  await push(parlance, "fr", content("fr"));
  const { stream, whole } = pulls(storage, project.id);
  await keep(stream);
  // Kept: a change that left the tag as it was (no writer does this) is not seen by the pull.
  db.run("UPDATE translations SET value = 'unseen' WHERE project_id = ? AND language = 'en' AND key = ?", [
    project.id,
    keyOf(5),
  ]);
  expect((await stream()).find((r) => r.key === keyOf(5))?.source).toBe("en 5");
  /** The pull after the write is a whole read's, and so is the one after the base is kept again. */
  const carries = async (expected: (rows: Awaited<ReturnType<typeof stream>>) => void) => {
    const after = await stream();
    expect(after).toEqual(await whole());
    expect(after.find((r) => r.key === keyOf(5))?.source).toBe("unseen");
    expected(after);
    await keep(stream);
    expect(await stream()).toEqual(after);
  };
  return { storage, parlance, project, owner, push, carries };
}

test("an edit of a base value", async () => {
  const w = await world();
  const [record] = await w.storage.records.read(w.project.id, [keyOf(7)], ["en"]);
  const version = record?.version ?? 0;
  await w.parlance.records.edit(w.owner, w.project.id, {
    key: keyOf(7),
    language: "en",
    value: "edited",
    version,
  });
  await w.carries((rows) => expect(rows.find((r) => r.key === keyOf(7))?.source).toBe("edited"));
});

test("a rename", async () => {
  const w = await world();
  await w.parlance.records.renameKey(w.owner, w.project.id, { from: keyOf(7), to: "renamed" });
  await w.carries((rows) => {
    expect(rows.find((r) => r.key === "renamed")?.source).toBe("en 7");
    expect(rows.some((r) => r.key === keyOf(7))).toBe(false);
  });
});

test("a deletion", async () => {
  const w = await world();
  await w.parlance.records.deleteKeys(w.owner, w.project.id, { keys: [keyOf(7)] });
  await w.carries((rows) => expect(rows.some((r) => r.key === keyOf(7))).toBe(false));
});

test("a restore", async () => {
  const w = await world();
  await w.parlance.records.deleteKeys(w.owner, w.project.id, { keys: [keyOf(7)] });
  await w.carries(() => {});
  await w.parlance.records.restoreKey(w.owner, w.project.id, { key: keyOf(7) });
  await w.carries((rows) => expect(rows.find((r) => r.key === keyOf(7))?.source).toBe("en 7"));
});

test("an import (push) of the base", async () => {
  const w = await world();
  await w.push(w.parlance, "en", JSON.stringify({ [keyOf(7)]: "pushed" }));
  await w.carries((rows) => expect(rows.find((r) => r.key === keyOf(7))?.source).toBe("pushed"));
});

test("two storages do not drop each other's kept bases", async () => {
  const seeded = async () => {
    const { db, storage } = openStorage();
    await seedPairedProject({ db, storage }, { keys: KEYS, tag: "v1" });
    return { db, storage, ...pulls(storage, "p1") };
  };
  const a = await seeded();
  const b = await seeded();
  await keep(a.stream);
  a.db.run("UPDATE translations SET value = 'unseen' WHERE project_id = 'p1' AND language = 'en'");
  // A write in B to the same project and language ids bumps B's tag: A keeps its base.
  const activity = {
    id: "a1",
    projectId: "p1",
    action: "key.delete" as const,
    actor: { kind: "user" as const, userId: "u1", name: "U" },
    jobId: null,
    language: null,
    key: null,
    detail: {},
    at: T,
  };
  expect(await b.storage.records.deleteKeys("p1", [keyOf(1)], activity)).toBe(2);
  expect((await a.stream()).every((r) => r.source !== "unseen")).toBe(true);
  expect((await b.stream()).some((r) => r.key === keyOf(1))).toBe(false);
});
