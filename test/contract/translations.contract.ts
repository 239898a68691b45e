import type { Storage } from "../../core/ports.ts";
import type { SourcedRow, TranslationRow } from "../../core/types.ts";
import { expect } from "./expect.ts";
import { at, id, importRows, project, seedProject } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

/**
 * Keys whose code-point order differs from JavaScript's default (UTF-16) and numeric orders:
 * U+FFFD sorts before U+1F600 by code point but after its surrogates by code unit.
 */
const SHUFFLED = ["😀", "a", "9", "\uFFFD", "a.b", "B", "ä", "10", "\uE000"];
const CODE_POINT_ORDER = ["10", "9", "B", "a", "a.b", "ä", "\uE000", "\uFFFD", "😀"];

const rowsOf = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, `v:${k}`]));

async function exported(storage: Storage, projectId: string, language: string): Promise<TranslationRow[]> {
  return storage.translations.listForExport(projectId, language, null);
}

export function translationContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › TranslationStore`);

  test("two keys with one md5 digest are two rows and two overrides", async (storage) => {
    // A published pair of printable texts with the same md5: a store that made keys unique by md5
    // overwrote the first with the second.
    const a = "TEXTCOLLBYfGiJUETHQ4hAcKSMd5zYpgqf1YRDhkmxHkhPWptrkoyz28wnI9V0aHeAuaKnak";
    const b = "TEXTCOLLBYfGiJUETHQ4hEcKSMd5zYpgqf1YRDhkmxHkhPWptrkoyz28wnI9V0aHeAuaKnak";
    const p = await seedProject(storage);
    await importRows(storage, p, "en", { [a]: "first", [b]: "second" });
    await importRows(storage, p, "en", { [b]: "second again" });
    const rows = await storage.translations.readLanguage(p.id, "en");
    expect(new Map([...rows].map(([key, row]) => [key, row.value]))).toEqual(
      new Map([
        [a, "first"],
        [b, "second again"],
      ]),
    );
    for (const [key, value] of [
      [a, "x"],
      [b, "y"],
    ] as const) {
      await storage.environments.set({ projectId: p.id, environment: "prod", language: "en", key, value });
    }
    expect(await storage.environments.list(p.id, "prod", "en")).toEqual(
      new Map([
        [a, "x"],
        [b, "y"],
      ]),
    );
  });

  test("reads of a language without rows are empty", async (storage) => {
    const p = await seedProject(storage);
    expect((await storage.translations.readLanguage(p.id, "en")).size).toBe(0);
    expect(await storage.translations.listForExport(p.id, "en", null)).toEqual([]);
    expect(await storage.translations.listPage(p.id, "en", 10, 0)).toEqual({ items: [], total: 0 });
    expect(await storage.translations.countByOrg(p.orgId)).toBe(0);
  });

  test("readLanguage maps every key of one language of one project to id, value and status", async (storage) => {
    const p = await seedProject(storage);
    const q = await seedProject(storage);
    await importRows(storage, p, "en", [
      { id: id(), key: "greeting", value: "Hello", status: "approved" },
      { id: id(), key: "empty", value: "", status: "draft" },
    ]);
    await importRows(storage, p, "fr", { greeting: "Bonjour", extra: "x" });
    await importRows(storage, q, "en", { other: "project" });
    const rows = await storage.translations.readLanguage(p.id, "en");
    const stored = await exported(storage, p.id, "en");
    expect([...rows.keys()].sort()).toEqual(["empty", "greeting"]);
    for (const t of stored) expect(rows.get(t.key)).toEqual({ id: t.id, value: t.value, status: t.status });
    expect(rows.get("greeting")).toMatchObject({ value: "Hello", status: "approved" });
  });

  test("listForExport returns id, key, value and status in ascending code-point order of key", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "fr", rowsOf(SHUFFLED), { now: at(7) });
    const rows = await exported(storage, p.id, "fr");
    expect(rows.map((t) => t.key)).toEqual(CODE_POINT_ORDER);
    expect(rows[0]).toEqual({ id: expect.any(String), key: "10", value: "v:10", status: "draft" });
  });

  test("listForExport with ids keeps listed rows of that language only, in key order", async (storage) => {
    const p = await seedProject(storage);
    const q = await seedProject(storage);
    await importRows(storage, p, "en", rowsOf(SHUFFLED));
    await importRows(storage, p, "fr", { a: "fr" });
    await importRows(storage, q, "en", { a: "q" });
    const en = await exported(storage, p.id, "en");
    const frId = (await exported(storage, p.id, "fr"))[0]?.id ?? "";
    const qId = (await exported(storage, q.id, "en"))[0]?.id ?? "";
    const chosen = en.filter((t) => ["😀", "9", "a"].includes(t.key));

    const ids = [frId, ...chosen.map((t) => t.id).reverse(), qId, id()];
    const got = await storage.translations.listForExport(p.id, "en", ids);
    expect(got).toEqual(chosen);
    expect(got.map((t) => t.key)).toEqual(["9", "a", "😀"]);
    expect(await storage.translations.listForExport(p.id, "en", [])).toEqual([]);
    expect(await storage.translations.listForExport(p.id, "en", [frId, qId])).toEqual([]);
  });

  test("listPage pages through one language in key order; total counts the whole language", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "en", rowsOf(SHUFFLED));
    await importRows(storage, p, "fr", { only: "fr" });
    const all = await exported(storage, p.id, "en");
    const page = async (offset: number) => {
      const { items, total } = await storage.translations.listPage(p.id, "en", 4, offset);
      for (const t of items)
        expect(t).toMatchObject({ projectId: p.id, language: "en", updatedAt: expect.any(String) });
      return { items: items.map(({ id, key, value, status }) => ({ id, key, value, status })), total };
    };
    expect(await page(0)).toEqual({ items: all.slice(0, 4), total: 9 });
    expect(await page(4)).toEqual({ items: all.slice(4, 8), total: 9 });
    expect(await page(8)).toEqual({ items: all.slice(8), total: 9 });
    expect(await storage.translations.listPage(p.id, "en", 4, 20)).toEqual({ items: [], total: 9 });
  });

  test("countByOrg counts rows of the organization's non-deleted projects only", async (storage) => {
    const p = await seedProject(storage);
    const sibling = project(p.orgId, { name: "Sibling" });
    const deleted = project(p.orgId, { name: "Deleted" });
    await storage.projects.create(sibling);
    await storage.projects.create(deleted);
    const stranger = await seedProject(storage);
    await importRows(storage, p, "en", { a: "1", b: "2" });
    await importRows(storage, p, "fr", { a: "1" });
    await importRows(storage, sibling, "en", { a: "1", b: "", c: "3" });
    await importRows(storage, deleted, "en", { a: "1" });
    await importRows(storage, stranger, "en", { a: "1" });
    expect(await storage.translations.countByOrg(p.orgId)).toBe(7);
    await storage.projects.softDelete(deleted.id, at(3));
    expect(await storage.translations.countByOrg(p.orgId)).toBe(6);
    expect(await storage.translations.countByOrg(stranger.orgId)).toBe(1);
    expect(await storage.translations.countByOrg(id())).toBe(0);
  });

  test("coverage counts reference keys (non-empty in the base) filled in each language", async (storage) => {
    const p = await seedProject(storage, { languages: ["en", "fr", "de", "it"] });
    const q = await seedProject(storage);
    await importRows(storage, p, "en", { a: "A", b: "", c: "C", d: "D" });
    // b is not a reference key (empty in the base); z exists only outside the base; c is empty here.
    await importRows(storage, p, "fr", { a: "A", b: "B", c: "", z: "Z" });
    await importRows(storage, p, "de", { a: "A", c: "C", d: "D" });
    await importRows(storage, p, "it", { b: "B", z: "Z" });
    await importRows(storage, q, "fr", { c: "C", d: "D" });
    const coverage = await storage.translations.coverage(p.id, "en");
    expect(coverage.referenceKeyCount).toBe(3);
    const filled = (language: string) => coverage.filled.get(language) ?? 0;
    expect([filled("en"), filled("fr"), filled("de"), filled("it"), filled("es")]).toEqual([3, 1, 3, 0, 0]);
  });

  test("coverage without reference keys is zero everywhere", async (storage) => {
    const p = await seedProject(storage);
    await importRows(storage, p, "en", { a: "" });
    await importRows(storage, p, "fr", { a: "A", b: "B" });
    const coverage = await storage.translations.coverage(p.id, "en");
    expect(coverage.referenceKeyCount).toBe(0);
    expect(coverage.filled.get("fr") ?? 0).toBe(0);
  });

  test("exportVersion: a language's part moves with its rows and overrides only, never back", async (storage) => {
    const versionOf = storage.translations.exportVersion;
    if (!versionOf) return; // optional: pull fingerprints the file instead
    const p = await seedProject(storage);
    const parts = async () => {
      const [en, fr] = (await versionOf.call(storage.translations, p.id, ["en", "fr"])).split(",");
      return { en, fr };
    };
    const seen = new Set<string>();
    const moved = async (language: "en" | "fr", before: { en?: string; fr?: string }) => {
      const now = await parts();
      const still = language === "en" ? "fr" : "en";
      expect(now[still]).toBe(before[still]);
      expect(now[language] === before[language]).toBe(false);
      expect(seen.has(now[language] as string)).toBe(false);
      seen.add(now[language] as string);
      return now;
    };
    let v = await parts();
    expect(await parts()).toEqual(v);
    await importRows(storage, p, "en", { a: "1", b: "2" });
    v = await moved("en", v);
    await importRows(storage, p, "fr", { a: "un" });
    v = await moved("fr", v);
    const b = (await storage.translations.readLanguage(p.id, "en")).get("b");
    await importRows(storage, p, "en", {}, { deleteIds: [b?.id as string] });
    v = await moved("en", v);
    await storage.environments.set({
      projectId: p.id,
      environment: "prod",
      language: "fr",
      key: "a",
      value: "x",
    });
    v = await moved("fr", v);
    await importRows(storage, p, "en", {});
    expect(await parts()).toEqual(v);
  });

  test("readValues gives the value of each listed key of one language, and nothing for the others", async (storage) => {
    const read = storage.translations.readValues;
    if (!read) return; // optional: an import's checks read the base otherwise
    const p = await seedProject(storage);
    const q = await seedProject(storage);
    await importRows(storage, p, "en", { ...rowsOf(SHUFFLED), empty: "" });
    await importRows(storage, p, "fr", { a: "fr a" });
    await importRows(storage, q, "en", { B: "other project" });
    const keys = ["a", "😀", "\uFFFD", "empty", "missing", "B"];
    expect(await read.call(storage.translations, p.id, "en", keys)).toEqual(
      new Map([
        ["a", "v:a"],
        ["😀", "v:😀"],
        ["\uFFFD", "v:\uFFFD"],
        ["empty", ""],
        ["B", "v:B"],
      ]),
    );
    expect(await read.call(storage.translations, q.id, "en", ["a", "B"])).toEqual(
      new Map([["B", "other project"]]),
    );
    expect((await read.call(storage.translations, p.id, "de", keys)).size).toBe(0);
    expect((await read.call(storage.translations, p.id, "en", [])).size).toBe(0);
  });

  test("readValues of hundreds of keys, ascending or not, filling their span or not: each listed key's value", async (storage) => {
    const read = storage.translations.readValues;
    if (!read) return;
    const p = await seedProject(storage);
    const q = await seedProject(storage);
    const all = Array.from({ length: 1200 }, (_, i) => `k${String(i).padStart(4, "0")}`);
    const stored = (k: string) => !k.startsWith("k") || Number(k.slice(1)) % 7 !== 3;
    await importRows(storage, p, "en", Object.fromEntries(all.filter(stored).map((k) => [k, `v:${k}`])));
    await importRows(storage, p, "en", { "a😀": "v:a😀", "b\uFFFD": "v:b\uFFFD" });
    await importRows(storage, p, "fr", Object.fromEntries(all.map((k) => [k, `fr:${k}`])));
    await importRows(storage, q, "en", Object.fromEntries(all.map((k) => [k, `q:${k}`])));
    const cases = [
      all.slice(100, 700), // ascending, fills its span
      [...all.slice(100, 700), "zz1", "zz2"], // and keys past the language's last
      all.filter((_, i) => i % 10 === 0), // ascending, a tenth of its span
      all.slice(0, 400).reverse(),
      ["a😀", "b\uFFFD", ...all.slice(0, 300)], // code-point order, not UTF-16 order
      ["b\uFFFD", "a😀", ...all.slice(0, 300)],
    ];
    for (const keys of cases) {
      const expected = new Map(
        keys.filter((k) => stored(k) && !k.startsWith("zz")).map((k) => [k, `v:${k}`] as const),
      );
      expect(await read.call(storage.translations, p.id, "en", keys)).toEqual(expected);
    }
  });

  test("listForExportWithoutIds: listForExport's rows without their id, whole or selected", async (storage) => {
    const withoutIds = storage.translations.listForExportWithoutIds;
    if (!withoutIds) return; // optional: pull reads listForExport's rows
    const p = await seedProject(storage);
    await importRows(storage, p, "fr", rowsOf(SHUFFLED));
    await importRows(storage, p, "en", { a: "A" });
    const rows = await exported(storage, p.id, "fr");
    const expected = rows.map(({ key, value, status }) => ({ key, value, status }));
    const got = await withoutIds.call(storage.translations, p.id, "fr", null);
    expect(got).toEqual(expected);
    expect(got.some((r) => "id" in r)).toBe(false);
    const enId = (await exported(storage, p.id, "en"))[0]?.id as string;
    const ids = [rows[3]?.id as string, enId, rows[0]?.id as string, "not-an-id"];
    expect(await withoutIds.call(storage.translations, p.id, "fr", ids)).toEqual([expected[0], expected[3]]);
    expect(await withoutIds.call(storage.translations, p.id, "fr", [])).toEqual([]);
  });

  test("listForExportWithSource: listForExport's rows, each with its key's value in the source language", async (storage) => {
    const sourced = storage.translations.listForExportWithSource;
    if (!sourced) return; // optional: pull reads the base language apart
    const p = await seedProject(storage);
    await importRows(storage, p, "en", { a: "A", b: "B" });
    await importRows(storage, p, "fr", rowsOf(SHUFFLED));
    const rows = await exported(storage, p.id, "fr");
    const expected = rows.map(({ key, value, status }) => ({
      key,
      value,
      status,
      source: key === "a" ? "A" : null,
    }));
    expect(await sourced.call(storage.translations, p.id, "fr", "en", null)).toEqual(expected);
    const ids = [rows[3]?.id as string, rows[0]?.id as string, "not-an-id"];
    expect(await sourced.call(storage.translations, p.id, "fr", "en", ids)).toEqual([
      expected[0],
      expected[3],
    ]);
    expect(await sourced.call(storage.translations, p.id, "fr", "en", [])).toEqual([]);
  });

  test("pagesForExportWithSource: listForExportWithSource's rows of the whole language, in pages none empty", async (storage) => {
    const paged = storage.translations.pagesForExportWithSource;
    if (!paged) return; // optional: pull reads whole
    const p = await seedProject(storage);
    await importRows(storage, p, "en", { a: "A", b: "B", "😀": "smile" });
    await importRows(storage, p, "fr", rowsOf(SHUFFLED));
    const pages: SourcedRow[][] = [];
    for await (const page of paged.call(storage.translations, p.id, "fr", "en")) pages.push(page);
    expect(pages.every((page) => page.length > 0)).toBe(true);
    expect(pages.flat()).toEqual(
      await storage.translations.listForExportWithSource?.(p.id, "fr", "en", null),
    );
    const none: SourcedRow[][] = [];
    for await (const page of paged.call(storage.translations, p.id, "de", "en")) none.push(page);
    expect(none).toEqual([]);
  });

  test("listForExportWithSource pairs by key whatever the order: keys on one side only, astral and high BMP keys", async (storage) => {
    const sourced = storage.translations.listForExportWithSource;
    if (!sourced) return;
    const p = await seedProject(storage);
    // The base lacks "a" and "\uFFFD"; the language lacks "B", "ä" and "x". UTF-16 order puts
    // "😀" before "\uE000"; code-point order (the export's) after "\uFFFD".
    const frKeys = SHUFFLED.filter((k) => k !== "B" && k !== "ä");
    const enKeys = [...SHUFFLED.filter((k) => k !== "a" && k !== "\uFFFD"), "x"];
    await importRows(storage, p, "en", Object.fromEntries(enKeys.map((k) => [k, `en:${k}`])));
    await importRows(storage, p, "fr", Object.fromEntries(frKeys.map((k) => [k, `fr:${k}`])));
    const rows = await sourced.call(storage.translations, p.id, "fr", "en", null);
    expect(rows).toEqual(
      CODE_POINT_ORDER.filter((k) => frKeys.includes(k)).map((k) => ({
        key: k,
        value: `fr:${k}`,
        status: "draft",
        source: enKeys.includes(k) ? `en:${k}` : null,
      })),
    );
  });
}
