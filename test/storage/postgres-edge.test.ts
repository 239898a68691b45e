/**
 * What the shared contract cannot see: text that Postgres array literals must escape, keys past
 * the size of a btree entry, dates in other shapes, and a full-size import.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Storage } from "../../core/ports.ts";
import type { Project } from "../../core/types.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { importRows } from "./import-rows.ts";
import { createTestSchema, postgresReachable, type TestSchema } from "./postgres-setup.ts";

const T = "2026-01-01T00:00:00.000Z";

if (await postgresReachable()) {
  let schema: TestSchema;
  let s: Storage;
  let p: Project;
  beforeEach(async () => {
    schema = await createTestSchema();
    s = await createPostgresStorage(schema.connect());
    await s.orgs.create({ id: "o", name: "Org", maxTranslations: null, createdAt: T });
    p = {
      id: "p",
      orgId: "o",
      name: "P",
      baseLanguage: "en",
      languages: ["en"],
      deletedAt: null,
      createdAt: T,
    };
    await s.projects.create(p);
  });
  afterEach(async () => schema.drop());

  test("values that array literals escape round-trip through the multi-row import", async () => {
    const tricky = [
      "NULL",
      "null",
      'a"b',
      "c\\d",
      "{x,y}",
      "",
      " ",
      "😀",
      "\uE000",
      "tab\tcr\rnl\n",
      "\u007f\u0085",
    ];
    const writes = tricky.map((v, i) => ({ id: `t${i}`, key: `k${v}`, value: v, status: "draft" as const }));
    await importRows(s, p, writes);
    const rows = await s.translations.readLanguage("p", "en");
    expect([...rows].map(([key, r]) => [key, r.value]).sort()).toEqual(
      writes.map((w) => [w.key, w.value]).sort(),
    );
    expect((await s.translations.listForExport("p", "en", ["t0", "t3"])).map((r) => r.value)).toEqual([
      "NULL",
      "c\\d",
    ]);
  });

  test("keys of 1,000 multi-byte code points (past a btree entry) are stored, updated and overridden", async () => {
    const longKey = Array.from({ length: 1000 }, (_, i) =>
      String.fromCodePoint(0x4e00 + ((i * 7919) % 20000)),
    ).join("");
    await importRows(s, p, [{ id: "a", key: longKey, value: "1", status: "draft" }]);
    await importRows(s, p, [{ id: "b", key: longKey, value: "2", status: "approved" }]);
    const rows = await s.translations.listForExport("p", "en", null);
    // The second write updated the row in place, keeping its id.
    expect(rows.map((r) => [r.id, r.key, r.value, r.status])).toEqual([["a", longKey, "2", "approved"]]);
    await s.environments.set({
      projectId: "p",
      environment: "prod",
      language: "en",
      key: longKey,
      value: "x",
    });
    await s.environments.set({
      projectId: "p",
      environment: "prod",
      language: "en",
      key: longKey,
      value: "y",
    });
    expect(await s.environments.list("p", "prod", "en")).toEqual(new Map([[longKey, "y"]]));
  });

  test("dates come back in toISOString form whatever ISO shape went in", async () => {
    await s.orgs.create({
      id: "o2",
      name: "O",
      maxTranslations: null,
      createdAt: "2026-01-01T01:00:00+01:00",
    });
    expect((await s.orgs.get("o2"))?.createdAt).toBe(T);
  });

  test("a 50,000-row import commits in one call, and a second one deletes and updates in place", async () => {
    const writes = Array.from({ length: 50_000 }, (_, i) => ({
      id: `id-${i}`,
      key: `section.${i}`,
      value: `value ${i}`,
      status: "draft" as const,
    }));
    await importRows(s, p, writes);
    await importRows(
      s,
      p,
      writes.slice(1).map((w, i) => ({ ...w, id: `new-${i}`, value: `${w.value}!` })),
      ["id-0"],
    );
    const rows = await s.translations.readLanguage("p", "en");
    expect(rows.size).toBe(49_999);
    expect(rows.get("section.1")).toEqual({ id: "id-1", value: "value 1!", status: "draft" });
  }, 30_000);
}
