import type { Storage } from "../../core/ports.ts";
import { expect } from "./expect.ts";
import { apiKey, at, org, token } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

async function seedKey(storage: Storage): Promise<string> {
  const o = org();
  await storage.orgs.create(o);
  const k = apiKey(o.id);
  await storage.keys.create(k);
  return k.id;
}

export function tokenContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › TokenStore`);

  test("findByHash is null when absent", async (storage) => {
    expect(await storage.tokens.findByHash("f".repeat(64))).toBeNull();
  });

  test("create then findByHash round-trips every field, expired or not", async (storage) => {
    const keyId = await seedKey(storage);
    const live = token(keyId, { scopes: ["admin", "export:read"], expiresAt: at(60) });
    const expired = token(keyId, { expiresAt: at(-5), createdAt: at(-65) });
    await storage.tokens.create(live);
    await storage.tokens.create(expired);
    expect(await storage.tokens.findByHash(live.hash)).toEqual(live);
    expect(await storage.tokens.findByHash(expired.hash)).toEqual(expired);
  });

  test("deleteExpired removes tokens that expired before now and counts them", async (storage) => {
    const keyId = await seedKey(storage);
    const old = token(keyId, { expiresAt: at(1) });
    const older = token(keyId, { expiresAt: at(2) });
    const current = token(keyId, { expiresAt: at(20) });
    for (const t of [old, older, current]) await storage.tokens.create(t);

    expect(await storage.tokens.deleteExpired(at(10))).toBe(2);
    expect(await storage.tokens.findByHash(old.hash)).toBeNull();
    expect(await storage.tokens.findByHash(older.hash)).toBeNull();
    expect(await storage.tokens.findByHash(current.hash)).toEqual(current);
    expect(await storage.tokens.deleteExpired(at(10))).toBe(0);
  });
}
