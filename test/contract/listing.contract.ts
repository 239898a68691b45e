import { expect } from "./expect.ts";
import { at, org, project } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

/** UTF-16 order would put "😀" (D83D…) before "\uFFFD"; code-point order puts it after. */
const NAMES = ["😀", "\uFFFD", "b", "B", "a", "Z", "same", "same"];
const CODE_POINT_ORDER = ["B", "Z", "a", "b", "same", "same", "\uFFFD", "😀"];
const byId = (a: string, b: string) => (a < b ? -1 : 1);

/** The operator's listings: OrganizationStore.list and ProjectStore.listAll. */
export function listingContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › listings for operators`);

  test("orgs.list is empty on an empty store", async (storage) => {
    expect(await storage.orgs.list()).toEqual([]);
  });

  test("orgs.list: every organization, by name in code-point order, then id, every field", async (storage) => {
    const created = NAMES.map((name, i) => org({ name, maxTranslations: i === 0 ? 7 : null }));
    for (const o of created) await storage.orgs.create(o);
    const listed = await storage.orgs.list();
    expect(listed.map((o) => o.name)).toEqual(CODE_POINT_ORDER);
    const sameIds = created.filter((o) => o.name === "same").map((o) => o.id);
    expect(listed.filter((o) => o.name === "same").map((o) => o.id)).toEqual(sameIds.sort(byId));
    expect(listed.find((o) => o.name === "😀")).toEqual(created[0]);
  });

  test("orgs.list shows a quota set later", async (storage) => {
    const o = org();
    await storage.orgs.create(o);
    await storage.orgs.setQuota(o.id, 12);
    expect(await storage.orgs.list()).toEqual([{ ...o, maxTranslations: 12 }]);
  });

  test("projects.listAll is empty on an empty store", async (storage) => {
    expect(await storage.projects.listAll()).toEqual([]);
  });

  test("projects.listAll: non-deleted projects of every organization, by name in code-point order, then id", async (storage) => {
    const one = org();
    const two = org();
    await storage.orgs.create(one);
    await storage.orgs.create(two);
    const created = NAMES.map((name, i) => project(i % 2 === 0 ? one.id : two.id, { name }));
    for (const p of created) await storage.projects.create(p);
    const deleted = project(one.id, { name: "A deleted" });
    await storage.projects.create(deleted);
    await storage.projects.softDelete(deleted.id, at(1));

    const listed = await storage.projects.listAll();
    expect(listed.map((p) => p.name)).toEqual(CODE_POINT_ORDER);
    const sameIds = created.filter((p) => p.name === "same").map((p) => p.id);
    expect(listed.filter((p) => p.name === "same").map((p) => p.id)).toEqual(sameIds.sort(byId));
    expect(listed.find((p) => p.name === "b")).toEqual(created.find((p) => p.name === "b"));
  });

  test("projects.listAll shows languages added later", async (storage) => {
    const o = org();
    await storage.orgs.create(o);
    const p = project(o.id, { languages: ["en"] });
    await storage.projects.create(p);
    await storage.projects.addLanguage(p.id, "fr");
    expect(await storage.projects.listAll()).toEqual([{ ...p, languages: ["en", "fr"] }]);
  });

  test("callers cannot change stored state through what they got", async (storage) => {
    const o = org();
    await storage.orgs.create(o);
    const p = project(o.id, { languages: ["en"] });
    await storage.projects.create(p);
    const [gotOrg] = await storage.orgs.list();
    if (gotOrg) gotOrg.name = "changed";
    const [gotProject] = await storage.projects.listAll();
    gotProject?.languages.push("de");
    expect(await storage.orgs.get(o.id)).toEqual(o);
    expect(await storage.projects.get(p.id)).toEqual(p);
  });
}
