import { expect } from "./expect.ts";
import { at, id, org } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

export function organizationContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › OrganizationStore`);

  test("get is null when absent", async (storage) => {
    expect(await storage.orgs.get(id())).toBeNull();
  });

  test("create then get round-trips every field", async (storage) => {
    const unlimited = org({ name: "Ünïcode 😀", createdAt: at(5) });
    const limited = org({ maxTranslations: 250 });
    await storage.orgs.create(unlimited);
    await storage.orgs.create(limited);
    expect(await storage.orgs.get(unlimited.id)).toEqual(unlimited);
    expect(await storage.orgs.get(limited.id)).toEqual(limited);
  });

  test("setQuota returns the updated organization; null means unlimited", async (storage) => {
    const o = org();
    await storage.orgs.create(o);
    expect(await storage.orgs.setQuota(o.id, 10)).toEqual({ ...o, maxTranslations: 10 });
    expect(await storage.orgs.get(o.id)).toEqual({ ...o, maxTranslations: 10 });
    expect(await storage.orgs.setQuota(o.id, null)).toEqual({ ...o, maxTranslations: null });
    expect(await storage.orgs.get(o.id)).toEqual(o);
  });

  test("setQuota is null when absent", async (storage) => {
    expect(await storage.orgs.setQuota(id(), 10)).toBeNull();
  });

  test("callers cannot change stored state through what they passed or got", async (storage) => {
    const o = org();
    await storage.orgs.create(o);
    const expected = { ...o };
    o.name = "changed";
    const got = await storage.orgs.get(o.id);
    if (got) got.maxTranslations = 1;
    expect(await storage.orgs.get(o.id)).toEqual(expected);
  });
}
