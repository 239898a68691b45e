import type { Storage } from "../../core/ports.ts";
import type { Actor } from "../../core/principal.ts";
import { foldForSearch } from "../../core/records/fold.ts";
import type { ActivityItem, BrowseQuery, RecordCommit, RecordWrite } from "../../core/records/types.ts";
import type { Project, TranslationStatus } from "../../core/types.ts";
import { expect } from "./expect.ts";
import { at, id, importRows, job, must, seedProject } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

const ana: Actor = { kind: "user", userId: "u-ana", name: "Ana" };
const ben: Actor = { kind: "user", userId: "u-ben", name: "Ben" };

const activity = (p: Project, over: Partial<ActivityItem> = {}): ActivityItem => ({
  id: id(),
  projectId: p.id,
  action: "edit",
  actor: ana,
  jobId: null,
  language: null,
  key: null,
  detail: {},
  at: at(5),
  ...over,
});

const write = (
  key: string,
  language: string,
  value: string,
  over: Partial<RecordWrite> = {},
): RecordWrite => ({
  id: id(),
  key,
  language,
  value,
  status: "pending",
  warnings: [],
  expectVersion: null,
  previous: null,
  ...over,
});

function commitOf(p: Project, writes: RecordWrite[], over: Partial<RecordCommit> = {}): RecordCommit {
  const a = activity(p, over.activity);
  return { projectId: p.id, writes, rechecks: [], activity: a, at: a.at, ...over };
}

const query = (p: Project, over: Partial<BrowseQuery> = {}): BrowseQuery => ({
  projectId: p.id,
  baseLanguage: p.baseLanguage,
  languages: ["fr"],
  language: "fr",
  projectLanguages: p.languages,
  filter: {},
  after: null,
  limit: 100,
  ...over,
});

async function one(storage: Storage, p: Project, key: string, language: string) {
  const [r] = await storage.records.read(p.id, [key], [language]);
  return must(r);
}

/** en: a, b, c, d (non-empty) and e (empty); fr: a approved, b draft with a warning, c empty. */
async function seedBrowse(storage: Storage) {
  const p = await seedProject(storage);
  await importRows(storage, p, "en", { a: "Apple", b: "Banana", c: "Cherry", d: "Dátil", e: "" });
  const w = { code: "placeholder-missing" as const, message: "x" };
  const res = await storage.records.commit(
    commitOf(p, [
      write("a", "fr", "Pomme", { status: "approved" }),
      write("b", "fr", "Banane", { status: "draft", warnings: [w] }),
      write("c", "fr", "", { status: "draft" }),
    ]),
  );
  expect(res).toEqual({ ok: true });
  return p;
}

export function recordContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › RecordStore`);

  test("imports create records at version 1 and each change of any path adds one", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "en", { greeting: "Hello" });
    expect(await one(storage, p, "greeting", "en")).toMatchObject({
      version: 1,
      value: "Hello",
      warnings: [],
      updatedBy: null,
    });
    await importRows(storage, p, "en", { greeting: "Hi" });
    const r = await one(storage, p, "greeting", "en");
    expect(r.version).toBe(2);
    const res = await storage.records.commit(
      commitOf(p, [
        write("greeting", "en", "Hey", {
          id: r.id,
          expectVersion: 2,
          previous: { value: "Hi", status: "draft" },
        }),
      ]),
    );
    expect(res).toEqual({ ok: true });
    expect(await one(storage, p, "greeting", "en")).toMatchObject({
      id: r.id,
      version: 3,
      value: "Hey",
      status: "pending",
      updatedBy: ana,
      updatedAt: at(5),
    });
  });

  test("an import with an audit writes warnings, one history entry per row and one activity item", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "fr", { keep: "x", gone: "y" });
    const before = await storage.records.read(p.id, ["keep", "gone"], ["fr"]);
    const gone = must(before.find((r) => r.key === "gone"));
    const keep = must(before.find((r) => r.key === "keep"));
    const j = job(p);
    await storage.jobs.create(j);
    const runId = id();
    await storage.jobs.claimNext(runId, at(3), at(10));
    const warning = { code: "empty" as const, message: "empty" };
    const item = activity(p, {
      action: "import",
      actor: { kind: "api_key", keyId: "k1", name: "ci" },
      jobId: j.id,
      language: "fr",
      detail: { created: 1, updated: 1, deleted: 1 },
    });
    const ok = await storage.jobs.complete(
      j.id,
      runId,
      {
        projectId: p.id,
        language: "fr",
        writes: [
          { id: keep.id, key: "keep", value: "", status: "approved" },
          { id: id(), key: "new", value: "n", status: "approved" },
        ],
        deleteIds: [gone.id],
        summary: { created: 1, updated: 1, deleted: 1 },
        audit: {
          actor: item.actor,
          jobId: j.id,
          previous: [{ value: "x", status: "draft" }, null],
          warnings: [[warning], []],
          deleted: [{ key: "gone", value: "y", status: "draft" }],
          rechecks: [],
          activity: item,
        },
      },
      at(4),
    );
    expect(ok).toBe(true);
    const kept = await one(storage, p, "keep", "fr");
    expect(kept).toMatchObject({
      version: 2,
      value: "",
      warnings: [warning],
      updatedBy: item.actor,
      updatedAt: at(4),
    });
    const h = await storage.records.history(kept.id, null, 10);
    expect(h.items.length).toBe(1);
    expect(h.items[0]).toMatchObject({
      recordId: kept.id,
      action: "import",
      jobId: j.id,
      eventId: item.id,
      oldValue: "x",
      oldStatus: "draft",
      newValue: "",
      newStatus: "approved",
      version: 2,
      at: at(4),
    });
    const g = await storage.records.history(gone.id, null, 10);
    expect(g.items[0]).toMatchObject({
      key: "gone",
      oldValue: "y",
      newValue: null,
      newStatus: null,
      version: null,
    });
    const feed = await storage.records.activity(p.id, null, 10);
    expect(feed.items.length).toBe(1);
    expect(feed.items[0]).toMatchObject({
      id: item.id,
      action: "import",
      jobId: j.id,
      detail: { created: 1, updated: 1, deleted: 1 },
    });
  });

  test("an audited import writes a row deleted after it planned as a new record, with its entry", async (storage) => {
    const p = await seedProject(storage);
    const j = job(p);
    await storage.jobs.create(j);
    const runId = id();
    await storage.jobs.claimNext(runId, at(3), at(10));
    const item = activity(p, { action: "import", jobId: j.id, language: "fr" });
    const written = { id: id(), key: "gone", value: "back", status: "approved" as const };
    const ok = await storage.jobs.complete(
      j.id,
      runId,
      {
        projectId: p.id,
        language: "fr",
        writes: [written],
        deleteIds: [],
        summary: { created: 0, updated: 1 },
        audit: {
          actor: item.actor,
          jobId: j.id,
          previous: [{ value: "was", status: "draft" }],
          warnings: [[]],
          deleted: [],
          rechecks: [],
          activity: item,
        },
      },
      at(4),
    );
    expect(ok).toBe(true);
    const row = await one(storage, p, "gone", "fr");
    expect(row).toMatchObject({ id: written.id, version: 1, value: "back", status: "approved" });
    const h = await storage.records.history(row.id, null, 10);
    expect(h.items.length).toBe(1);
    expect(h.items[0]).toMatchObject({ oldValue: "was", newValue: "back", version: 1 });
  });

  test("an audited import whose new and existing rows alternate writes each with its own entry", async (storage) => {
    const p = await seedProject(storage);
    const keys = Array.from({ length: 300 }, (_, i) => `k${String(i).padStart(3, "0")}`);
    await importRows(
      storage,
      p,
      "fr",
      Object.fromEntries(keys.filter((_, i) => i % 2 === 0).map((k) => [k, `old ${k}`])),
    );
    const j = job(p);
    await storage.jobs.create(j);
    const runId = id();
    await storage.jobs.claimNext(runId, at(3), at(10));
    const item = activity(p, { action: "import", jobId: j.id, language: "fr" });
    const previous = keys.map((k, i) =>
      i % 2 === 0 ? { value: `old ${k}`, status: "approved" as const } : null,
    );
    const ok = await storage.jobs.complete(
      j.id,
      runId,
      {
        projectId: p.id,
        language: "fr",
        writes: keys.map((key) => ({ id: id(), key, value: `new ${key}`, status: "pending" as const })),
        deleteIds: [],
        summary: { created: 150, updated: 150 },
        audit: {
          actor: item.actor,
          jobId: j.id,
          previous,
          warnings: keys.map(() => []),
          deleted: [],
          rechecks: [],
          activity: item,
        },
      },
      at(4),
    );
    expect(ok).toBe(true);
    const rows = new Map((await storage.records.read(p.id, keys, ["fr"])).map((r) => [r.key, r]));
    expect(keys.map((k) => [k, rows.get(k)?.value, rows.get(k)?.status, rows.get(k)?.version])).toEqual(
      keys.map((k, i) => [k, `new ${k}`, "pending", i % 2 === 0 ? 2 : 1]),
    );
    // The seed was not audited: each record has exactly the import's entry.
    for (const [i, k] of keys.entries()) {
      const h = await storage.records.history(must(rows.get(k)).id, null, 10);
      expect({ k, entries: h.items.map((e) => [e.oldValue, e.newValue, e.version]) }).toEqual({
        k,
        entries: [[i % 2 === 0 ? `old ${k}` : null, `new ${k}`, i % 2 === 0 ? 2 : 1]],
      });
    }
  });

  test("commit refuses a stale version or a creation over an existing record, and writes nothing", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "fr", { a: "A" });
    const r = await one(storage, p, "a", "fr");
    const stale = await storage.records.commit(
      commitOf(p, [
        write("b", "fr", "B", { expectVersion: 0 }),
        write("a", "fr", "X", { id: r.id, expectVersion: 5 }),
      ]),
    );
    expect(stale).toEqual({ ok: false, key: "a", language: "fr" });
    expect(await storage.records.read(p.id, ["b"], null)).toEqual([]);
    expect(await storage.records.commit(commitOf(p, [write("a", "fr", "X", { expectVersion: 0 })]))).toEqual({
      ok: false,
      key: "a",
      language: "fr",
    });
    expect((await storage.records.activity(p.id, null, 10)).items).toEqual([]);
  });

  test("two racing edits of one version: exactly one wins", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "fr", { a: "A" });
    const r = await one(storage, p, "a", "fr");
    const edit = (value: string) =>
      storage.records.commit(
        commitOf(p, [
          write("a", "fr", value, { id: r.id, expectVersion: 1, previous: { value: "A", status: "draft" } }),
        ]),
      );
    const results = await Promise.all([edit("X"), edit("Y")]);
    expect(results.filter((x) => x.ok).length).toBe(1);
    expect((await one(storage, p, "a", "fr")).version).toBe(2);
    expect((await storage.records.history(r.id, null, 10)).items.length).toBe(1);
  });

  test("rechecks replace warnings without a new version", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "fr", { a: "A" });
    const r = await one(storage, p, "a", "fr");
    const w = { code: "empty" as const, message: "m" };
    await storage.records.commit(
      commitOf(p, [write("a", "en", "Base")], { rechecks: [{ id: r.id, warnings: [w] }] }),
    );
    expect(await one(storage, p, "a", "fr")).toMatchObject({ version: 1, warnings: [w] });
  });

  test("history pages newest first; historyEntry finds an entry of the project only", async (storage) => {
    const p = await seedProject(storage);
    const q = await seedProject(storage);
    await storage.records.commit(commitOf(p, [write("a", "fr", "1", { expectVersion: 0 })]));
    const r = await one(storage, p, "a", "fr");
    for (const v of ["2", "3", "4"]) {
      await storage.records.commit(commitOf(p, [write("a", "fr", v, { id: r.id })]));
    }
    const first = await storage.records.history(r.id, null, 3);
    expect(first.items.map((e) => e.newValue)).toEqual(["4", "3", "2"]);
    expect(first.items.map((e) => e.version)).toEqual([4, 3, 2]);
    const second = await storage.records.history(r.id, must(first.next), 3);
    expect(second.items.map((e) => e.newValue)).toEqual(["1"]);
    expect(second.next).toBe(null);
    const entry = must(second.items[0]);
    expect(await storage.records.historyEntry(p.id, entry.id)).toEqual(entry);
    expect(await storage.records.historyEntry(q.id, entry.id)).toBe(null);
    const feed = await storage.records.activity(p.id, null, 2);
    expect(feed.items.length).toBe(2);
    expect((await storage.records.activity(p.id, must(feed.next), 10)).items.length).toBe(2);
  });

  test("browse: keys in code-point order with the base beside the language, cursor pages, counts", async (storage) => {
    const p = await seedBrowse(storage);
    const page = await storage.records.browse(query(p, { limit: 2 }));
    expect(page.rows.map((r) => r.key)).toEqual(["a", "b"]);
    expect(page.more).toBe(true);
    expect(page.rows[0]?.base?.value).toBe("Apple");
    expect(page.rows[0]?.records.fr?.value).toBe("Pomme");
    expect(page.counts).toEqual({
      total: 5,
      missing: 2,
      draft: 2,
      pending: 0,
      needs_review: 0,
      approved: 1,
      warnings: 1,
    });
    const next = await storage.records.browse(query(p, { limit: 2, after: "b" }));
    expect(next.rows.map((r) => r.key)).toEqual(["c", "d"]);
    expect(next.rows[1]?.records.fr).toBe(null);
    const last = await storage.records.browse(query(p, { limit: 2, after: "d" }));
    expect(last.rows.map((r) => r.key)).toEqual(["e"]);
    expect(last.more).toBe(false);
  });

  test("browse filters combine: missing, status, warnings, changedSince, changedBy, text", async (storage) => {
    const p = await seedBrowse(storage);
    const keys = async (filter: BrowseQuery["filter"]) => {
      const page = await storage.records.browse(query(p, { filter }));
      expect(await storage.records.matchKeys(query(p, { filter }))).toEqual(page.rows.map((r) => r.key));
      expect(page.counts.total).toBe(page.rows.length);
      return page.rows.map((r) => r.key);
    };
    expect(await keys({ missing: true })).toEqual(["c", "d"]);
    expect(await keys({ statuses: ["draft" as TranslationStatus] })).toEqual(["b", "c"]);
    expect(await keys({ statuses: ["approved", "pending"] })).toEqual(["a"]);
    expect(await keys({ warnings: true })).toEqual(["b"]);
    expect(await keys({ missing: true, statuses: ["draft"] })).toEqual(["c"]);
    expect(await keys({ changedSince: at(5) })).toEqual(["a", "b", "c"]);
    expect(await keys({ changedSince: at(6) })).toEqual([]);
    expect(await keys({ changedBy: "u-ana" })).toEqual(["a", "b", "c"]);
    expect(await keys({ changedBy: "u-ben" })).toEqual([]);
    expect(await keys({ q: foldForSearch("POMME") })).toEqual(["a"]);
    expect(await keys({ q: foldForSearch("datil") })).toEqual(["d"]);
    expect(await keys({ q: "an" })).toEqual(["b"]);
    expect(await keys({ q: "an", statuses: ["approved"] })).toEqual([]);
    expect(await keys({ q: "e", missing: true })).toEqual(["c"]);
    const counted = await storage.records.browse(query(p, { filter: { q: "an" } }));
    expect(counted.counts).toEqual({
      total: 1,
      missing: 0,
      draft: 1,
      pending: 0,
      needs_review: 0,
      approved: 0,
      warnings: 1,
    });
  });

  test("counts, totals and text matches follow every write path, and one project's writes leave another's right", async (storage) => {
    // Stores may remember counts between browses (SQLite does, per project): each write below
    // comes after every figure was read once, so a figure remembered too long would show.
    const p = await seedBrowse(storage);
    const other = await seedBrowse(storage);
    const drafts = { statuses: ["draft" as TranslationStatus] };
    const approved = { statuses: ["approved" as TranslationStatus] };
    const filters: BrowseQuery["filter"][] = [
      {},
      drafts,
      approved,
      { missing: true },
      { warnings: true },
      { q: "datte" },
      { q: "b2" },
      { q: "an", ...drafts },
    ];
    const read = async (project: Project) => {
      const out: Record<string, unknown>[] = [];
      for (const filter of filters) {
        const page = await storage.records.browse(query(project, { filter }));
        expect(page.counts.total).toBe(page.rows.length);
        out.push({ ...page.counts, keys: page.rows.map((r) => r.key) });
      }
      return out;
    };
    const otherBefore = await read(other);
    const seen = await read(p);
    expect(seen.map((c) => c.total)).toEqual([5, 2, 1, 2, 1, 0, 0, 1]);

    await storage.records.commit(commitOf(other, [write("d", "fr", "Dattier", { status: "draft" })]));
    expect(await read(p)).toEqual(seen);
    const otherAfter = await read(other);
    expect(otherAfter.map((c) => c.total)).toEqual([5, 3, 1, 1, 1, 0, 0, 1]);
    expect(otherAfter[0]).toMatchObject({ draft: 3, missing: 1 });

    await importRows(storage, p, "fr", { d: "Datte" });
    const imported = await read(p);
    expect(imported.map((c) => c.total)).toEqual([5, 3, 1, 1, 1, 1, 0, 1]);
    expect(imported[0]).toMatchObject({ draft: 3, missing: 1, approved: 1 });

    expect(await storage.records.renameKey(p.id, "b", "b2", activity(p, { action: "key.rename" }))).toBe(
      "renamed",
    );
    expect((await read(p)).map((c) => c.keys)).toEqual([
      ["a", "b2", "c", "d", "e"],
      ["b2", "c", "d"],
      ["a"],
      ["c"],
      ["b2"],
      ["d"],
      ["b2"],
      ["b2"],
    ]);
    await storage.records.deleteKeys(p.id, ["a"], activity(p, { action: "key.delete" }));
    const deleted = await read(p);
    expect(deleted.map((c) => c.total)).toEqual([4, 3, 0, 1, 1, 1, 1, 1]);
    expect(deleted[0]).toMatchObject({ approved: 0, missing: 1 });
    await storage.records.restoreKey(p.id, "a", activity(p, { action: "key.restore" }));
    expect((await read(p)).map((c) => c.total)).toEqual([5, 3, 1, 1, 1, 1, 1, 1]);
    expect(await read(other)).toEqual(otherAfter);
    expect(otherBefore).toEqual(seen);
  });

  test("rename keeps ids and history in every language; refuses a taken or unknown key", async (storage) => {
    const p = await seedBrowse(storage);
    const before = await storage.records.read(p.id, ["a"], null);
    expect(await storage.records.renameKey(p.id, "a", "b", activity(p, { action: "key.rename" }))).toBe(
      "exists",
    );
    expect(await storage.records.renameKey(p.id, "zz", "y", activity(p, { action: "key.rename" }))).toBe(
      "missing",
    );
    expect(
      await storage.records.renameKey(p.id, "a", "a2", activity(p, { action: "key.rename", actor: ben })),
    ).toBe("renamed");
    expect(await storage.records.read(p.id, ["a"], null)).toEqual([]);
    const after = await storage.records.read(p.id, ["a2"], null);
    expect(after.map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
    for (const r of after) {
      expect(r.version).toBe(2);
      expect(r.updatedBy).toEqual(ben);
      const h = await storage.records.history(r.id, null, 10);
      expect(h.items[0]).toMatchObject({ action: "key.rename", key: "a2", newValue: r.value });
      expect(h.items.length >= 1).toBe(true);
    }
    const page = await storage.records.browse(query(p, { filter: { q: "a2" } }));
    expect(page.rows.map((r) => r.key)).toEqual(["a2"]);
  });

  test("deleted keys leave every reader, are listed, and come back with their ids", async (storage) => {
    const p = await seedBrowse(storage);
    const before = await storage.records.read(p.id, ["b"], null);
    expect(
      await storage.records.deleteKeys(p.id, ["b", "nope"], activity(p, { action: "key.delete", at: at(8) })),
    ).toBe(2);
    expect(await storage.records.read(p.id, ["b"], null)).toEqual([]);
    expect((await storage.translations.readLanguage(p.id, "fr")).has("b")).toBe(false);
    expect((await storage.records.browse(query(p))).rows.map((r) => r.key)).toEqual(["a", "c", "d", "e"]);
    expect(await storage.records.listDeleted(p.id)).toEqual([
      { key: "b", deletedAt: at(8), deletedBy: ana, languages: ["en", "fr"] },
    ]);
    const h = await storage.records.history(must(before[0]).id, null, 10);
    expect(h.items[0]).toMatchObject({ action: "key.delete", newValue: null });
    expect(await storage.records.restoreKey(p.id, "zz", activity(p, { action: "key.restore" }))).toBe(
      "missing",
    );
    expect(await storage.records.restoreKey(p.id, "b", activity(p, { action: "key.restore" }))).toBe(
      "restored",
    );
    const back = await storage.records.read(p.id, ["b"], null);
    expect(back.map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
    for (const r of back) expect(r.version).toBe((before.find((x) => x.id === r.id)?.version ?? 0) + 1);
    expect(await storage.records.listDeleted(p.id)).toEqual([]);
    await storage.records.deleteKeys(p.id, ["b"], activity(p, { action: "key.delete" }));
    await importRows(storage, p, "fr", { b: "again" });
    expect(await storage.records.restoreKey(p.id, "b", activity(p, { action: "key.restore" }))).toBe(
      "exists",
    );
  });

  test("coverage counts statuses and warnings over the reference keys per language", async (storage) => {
    const p = await seedBrowse(storage);
    expect(await storage.records.coverage(p.id, "en", ["en", "fr", "de"])).toEqual([
      {
        language: "en",
        referenceKeys: 4,
        missing: 0,
        draft: 4,
        pending: 0,
        needs_review: 0,
        approved: 0,
        warnings: 0,
      },
      {
        language: "fr",
        referenceKeys: 4,
        missing: 2,
        draft: 1,
        pending: 0,
        needs_review: 0,
        approved: 1,
        warnings: 1,
      },
      {
        language: "de",
        referenceKeys: 4,
        missing: 4,
        draft: 0,
        pending: 0,
        needs_review: 0,
        approved: 0,
        warnings: 0,
      },
    ]);
  });
}
