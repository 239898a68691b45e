import { isParlanceError } from "../../core/errors.ts";
import type { Storage } from "../../core/ports.ts";
import { expect } from "./expect.ts";
import { apiKey, at, id, org } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

async function seedOrg(storage: Storage): Promise<string> {
  const o = org();
  await storage.orgs.create(o);
  return o.id;
}

export function keyContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › KeyStore`);

  test("get and findByHash are null when absent", async (storage) => {
    expect(await storage.keys.get(id())).toBeNull();
    expect(await storage.keys.findByHash("0".repeat(64))).toBeNull();
  });

  test("create then get and findByHash round-trip every field", async (storage) => {
    const orgId = await seedOrg(storage);
    const k = apiKey(orgId, {
      name: "CI ✓",
      scopes: ["admin", "translations:write"],
      rateLimit: 42,
      usageCount: 7,
      expiresAt: at(100),
      lastUsedAt: at(2),
    });
    await storage.keys.create(k);
    expect(await storage.keys.get(k.id)).toEqual(k);
    expect(await storage.keys.findByHash(k.hash)).toEqual(k);
  });

  test("a duplicate name in one organization is a conflict and stores nothing", async (storage) => {
    const orgId = await seedOrg(storage);
    await storage.keys.create(apiKey(orgId, { name: "deploy" }));
    const duplicate = apiKey(orgId, { name: "deploy" });
    const error = await storage.keys.create(duplicate).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isParlanceError(error) && error.code).toBe("conflict");
    expect(await storage.keys.get(duplicate.id)).toBeNull();
    expect(await storage.keys.count()).toBe(1);
  });

  test("the same name is allowed in another organization", async (storage) => {
    const a = await seedOrg(storage);
    const b = await seedOrg(storage);
    await storage.keys.create(apiKey(a, { name: "deploy" }));
    await storage.keys.create(apiKey(b, { name: "deploy" }));
    expect(await storage.keys.count()).toBe(2);
  });

  test("listByOrg: newest first, then id descending, paginated, with the total", async (storage) => {
    const orgId = await seedOrg(storage);
    const other = await seedOrg(storage);
    const oldest = apiKey(orgId, { createdAt: at(1) });
    const newest = apiKey(orgId, { createdAt: at(3) });
    const tied = [
      apiKey(orgId, { createdAt: at(2) }),
      apiKey(orgId, { createdAt: at(2) }),
      apiKey(orgId, { createdAt: at(2), active: false }),
    ];
    for (const k of [oldest, newest, ...tied]) await storage.keys.create(k);
    await storage.keys.create(apiKey(other, { createdAt: at(9) }));
    const expected = [
      newest.id,
      ...tied
        .map((k) => k.id)
        .sort()
        .reverse(),
      oldest.id,
    ];

    const all = await storage.keys.listByOrg(orgId, 100, 0);
    expect(all.total).toBe(5);
    expect(all.items.map((k) => k.id)).toEqual(expected);
    expect(all.items[0]).toEqual(newest);

    const page = await storage.keys.listByOrg(orgId, 2, 2);
    expect(page).toEqual({ total: 5, items: all.items.slice(2, 4) });
    expect(await storage.keys.listByOrg(orgId, 2, 10)).toEqual({ total: 5, items: [] });
    expect(await storage.keys.listByOrg(id(), 20, 0)).toEqual({ total: 0, items: [] });
  });

  test("count covers the whole store, active or not", async (storage) => {
    const a = await seedOrg(storage);
    const b = await seedOrg(storage);
    expect(await storage.keys.count()).toBe(0);
    await storage.keys.create(apiKey(a));
    await storage.keys.create(apiKey(a, { active: false }));
    await storage.keys.create(apiKey(b));
    expect(await storage.keys.count()).toBe(3);
  });

  test("deactivate returns the updated key; null when absent", async (storage) => {
    const k = apiKey(await seedOrg(storage));
    await storage.keys.create(k);
    expect(await storage.keys.deactivate(k.id)).toEqual({ ...k, active: false });
    expect(await storage.keys.get(k.id)).toEqual({ ...k, active: false });
    expect(await storage.keys.deactivate(id())).toBeNull();
  });

  test("addUsage accumulates counts and keeps the later lastUsedAt", async (storage) => {
    const orgId = await seedOrg(storage);
    const k = apiKey(orgId, { usageCount: 5 });
    const untouched = apiKey(orgId);
    await storage.keys.create(k);
    await storage.keys.create(untouched);
    await storage.keys.addUsage([
      { keyId: k.id, count: 3, lastUsedAt: at(10) },
      { keyId: k.id, count: 2, lastUsedAt: at(4) },
    ]);
    expect(await storage.keys.get(k.id)).toEqual({ ...k, usageCount: 10, lastUsedAt: at(10) });
    await storage.keys.addUsage([{ keyId: k.id, count: 1, lastUsedAt: at(7) }]);
    expect(await storage.keys.get(k.id)).toEqual({ ...k, usageCount: 11, lastUsedAt: at(10) });
    await storage.keys.addUsage([{ keyId: k.id, count: 1, lastUsedAt: at(12) }]);
    expect(await storage.keys.get(k.id)).toEqual({ ...k, usageCount: 12, lastUsedAt: at(12) });
    await storage.keys.addUsage([]);
    expect(await storage.keys.get(untouched.id)).toEqual(untouched);
  });

  test("callers cannot change stored state through what they passed or got", async (storage) => {
    const k = apiKey(await seedOrg(storage), { scopes: ["admin"] });
    await storage.keys.create(k);
    k.scopes.push("export:read");
    const got = await storage.keys.findByHash(k.hash);
    got?.scopes.push("translations:read");
    expect((await storage.keys.get(k.id))?.scopes).toEqual(["admin"]);
  });

  // Optional (core/ports.ts): an adapter without it, or one that cannot answer now, says undefined.
  test("findByHashNow, when it answers, answers as findByHash, also once the key changed", async (storage) => {
    const findNow = (hash: string) => storage.keys.findByHashNow?.(hash);
    const k = apiKey(await seedOrg(storage), { scopes: ["translations:read"] });
    const absent = findNow("0".repeat(64));
    if (absent !== undefined) expect(absent).toBeNull();
    await storage.keys.create(k);
    expect(await storage.keys.findByHash(k.hash)).toEqual(k);
    const found = findNow(k.hash);
    if (found !== undefined) expect(found).toEqual(k);
    found?.scopes.push("admin");
    expect(await storage.keys.findByHash(k.hash)).toEqual(k);
    // A key read before it was deactivated is never handed out as it was before.
    await storage.keys.deactivate(k.id);
    const after = findNow(k.hash);
    const changed = await storage.keys.findByHash(k.hash);
    if (after !== undefined) expect(after).toEqual(changed);
    const again = findNow(k.hash);
    if (again !== undefined) expect(again).toEqual(changed);
  });
}
