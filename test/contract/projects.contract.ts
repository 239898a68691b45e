import { expect } from "./expect.ts";
import { at, id, org, project, seedProject } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

export function projectContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › ProjectStore`);

  test("get is null when absent", async (storage) => {
    expect(await storage.projects.get(id())).toBeNull();
  });

  test("create then get round-trips every field, languages in order", async (storage) => {
    const p = await seedProject(storage, {
      languages: ["en", "zh-Hant-TW", "de", "pt-BR"],
      createdAt: at(3),
    });
    expect(await storage.projects.get(p.id)).toEqual(p);
  });

  test("listByOrg: non-deleted projects of the organization, by name in code-point order, then id", async (storage) => {
    const o = org();
    const other = org();
    await storage.orgs.create(o);
    await storage.orgs.create(other);
    // UTF-16 order would put "😀" (D83D…) before "\uFFFD"; code-point order puts it after.
    const names = ["😀", "\uFFFD", "b", "B", "a", "Z", "same", "same"];
    const created = names.map((name) => project(o.id, { name }));
    for (const p of created) await storage.projects.create(p);
    await storage.projects.create(project(other.id, { name: "A other org" }));
    const deleted = project(o.id, { name: "A deleted" });
    await storage.projects.create(deleted);
    await storage.projects.softDelete(deleted.id, at(1));

    const listed = await storage.projects.listByOrg(o.id);
    const sameIds = created.filter((p) => p.name === "same").map((p) => p.id);
    const byId = (a: string, b: string) => (a < b ? -1 : 1);
    expect(listed.map((p) => p.name)).toEqual(["B", "Z", "a", "b", "same", "same", "\uFFFD", "😀"]);
    expect(listed.filter((p) => p.name === "same").map((p) => p.id)).toEqual(sameIds.sort(byId));
    expect(listed.find((p) => p.name === "a")).toEqual(created.find((p) => p.name === "a"));
  });

  test("listByOrg is empty for an organization without projects", async (storage) => {
    expect(await storage.projects.listByOrg(id())).toEqual([]);
  });

  test("rename sets the name and returns the updated project; null when absent", async (storage) => {
    const o = org();
    await storage.orgs.create(o);
    const p = project(o.id, { name: "Old" });
    await storage.projects.create(p);
    expect(await storage.projects.rename(p.id, "New name")).toEqual({ ...p, name: "New name" });
    expect(await storage.projects.get(p.id)).toEqual({ ...p, name: "New name" });
    expect((await storage.projects.listByOrg(o.id)).map((x) => x.name)).toEqual(["New name"]);
    expect(await storage.projects.rename(crypto.randomUUID(), "X")).toBeNull();
  });

  test("addLanguage appends once and returns the updated project", async (storage) => {
    const p = await seedProject(storage, { languages: ["en", "fr"] });
    expect(await storage.projects.addLanguage(p.id, "de")).toEqual({
      ...p,
      languages: ["en", "fr", "de"],
    });
    expect(await storage.projects.addLanguage(p.id, "de")).toEqual({
      ...p,
      languages: ["en", "fr", "de"],
    });
    expect(await storage.projects.addLanguage(p.id, "DE")).toEqual({
      ...p,
      languages: ["en", "fr", "de", "DE"],
    });
    expect((await storage.projects.get(p.id))?.languages).toEqual(["en", "fr", "de", "DE"]);
  });

  test("addLanguage is null when absent", async (storage) => {
    expect(await storage.projects.addLanguage(id(), "fr")).toBeNull();
  });

  test("softDelete sets deletedAt, keeps an earlier one, and get still returns the project", async (storage) => {
    const p = await seedProject(storage);
    expect(await storage.projects.softDelete(p.id, at(5))).toEqual({ ...p, deletedAt: at(5) });
    expect(await storage.projects.softDelete(p.id, at(9))).toEqual({ ...p, deletedAt: at(5) });
    expect(await storage.projects.get(p.id)).toEqual({ ...p, deletedAt: at(5) });
    expect(await storage.projects.listByOrg(p.orgId)).toEqual([]);
  });

  test("softDelete is null when absent", async (storage) => {
    expect(await storage.projects.softDelete(id(), at(1))).toBeNull();
  });

  test("callers cannot change stored state through what they passed or got", async (storage) => {
    const p = await seedProject(storage, { languages: ["en"] });
    p.languages.push("fr");
    const got = await storage.projects.get(p.id);
    got?.languages.push("de");
    expect((await storage.projects.get(p.id))?.languages).toEqual(["en"]);
  });

  // Optional (core/ports.ts): an adapter without it, or one that cannot answer now, says undefined.
  test("getNow, when it answers, answers as get, also once the project changed", async (storage) => {
    const getNow = (projectId: string) => storage.projects.getNow?.(projectId);
    const absent = getNow(id());
    if (absent !== undefined) expect(absent).toBeNull();
    const p = await seedProject(storage, { languages: ["en"] });
    expect(await storage.projects.get(p.id)).toEqual(p);
    const found = getNow(p.id);
    if (found !== undefined) expect(found).toEqual(p);
    found?.languages.push("de");
    expect(await storage.projects.get(p.id)).toEqual(p);
    await storage.projects.rename(p.id, "Renamed");
    const after = getNow(p.id);
    const changed = await storage.projects.get(p.id);
    expect(changed?.name).toBe("Renamed");
    if (after !== undefined) expect(after).toEqual(changed);
    const again = getNow(p.id);
    if (again !== undefined) expect(again).toEqual(changed);
    await storage.projects.softDelete(p.id, at(5));
    const deleted = getNow(p.id);
    if (deleted !== undefined) expect(deleted).toEqual(await storage.projects.get(p.id));
  });
}
