import { expect } from "./expect.ts";
import { at, org } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";
import { oneTimeToken } from "./people-fixtures.ts";

export function oneTimeTokenContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › OneTimeTokenStore`);

  test("findByHash and get are null when absent", async (storage) => {
    expect(await storage.oneTimeTokens.findByHash("b".repeat(64))).toBeNull();
    expect(await storage.oneTimeTokens.get(crypto.randomUUID())).toBeNull();
  });

  test("create then findByHash and get round-trip every field", async (storage) => {
    const invitation = oneTimeToken({
      orgId: crypto.randomUUID(),
      email: "Zoe@example.com",
      role: "translator",
      languages: ["fr", "pt-BR"],
      createdBy: crypto.randomUUID(),
    });
    const reset = oneTimeToken({ kind: "reset", userId: crypto.randomUUID() });
    const setupToken = oneTimeToken({ kind: "setup" });
    for (const t of [invitation, reset, setupToken]) {
      await storage.oneTimeTokens.create(t);
      expect(await storage.oneTimeTokens.findByHash(t.tokenHash)).toEqual(t);
      expect(await storage.oneTimeTokens.get(t.id)).toEqual(t);
    }
  });

  test("consume takes an unused, unexpired token of its kind, once", async (storage) => {
    const t = oneTimeToken({ kind: "reset", expiresAt: at(60) });
    await storage.oneTimeTokens.create(t);
    expect(await storage.oneTimeTokens.consume(t.tokenHash, "invitation", at(1))).toBeNull();
    expect(await storage.oneTimeTokens.consume(t.tokenHash, "reset", at(60))).toBeNull();
    expect(await storage.oneTimeTokens.consume(t.tokenHash, "reset", at(1))).toEqual(t);
    expect(await storage.oneTimeTokens.consume(t.tokenHash, "reset", at(2))).toBeNull();
    expect((await storage.oneTimeTokens.get(t.id))?.usedAt).toBe(at(1));
  });

  test("of two racing consumers exactly one gets the token", async (storage) => {
    const t = oneTimeToken({ kind: "setup" });
    await storage.oneTimeTokens.create(t);
    const results = await Promise.all([
      storage.oneTimeTokens.consume(t.tokenHash, "setup", at(1)),
      storage.oneTimeTokens.consume(t.tokenHash, "setup", at(1)),
      storage.oneTimeTokens.consume(t.tokenHash, "setup", at(1)),
    ]);
    expect(results.filter((r) => r !== null).length).toBe(1);
  });

  test("listInvitations: the organization's open invitations, newest first", async (storage) => {
    const o = org();
    const orgId = o.id;
    const old = oneTimeToken({ orgId, createdAt: at(1), expiresAt: at(100) });
    const recent = oneTimeToken({ orgId, createdAt: at(2), expiresAt: at(100) });
    const expired = oneTimeToken({ orgId, createdAt: at(3), expiresAt: at(5) });
    const used = oneTimeToken({ orgId, createdAt: at(4), expiresAt: at(100), usedAt: at(6) });
    const elsewhere = oneTimeToken({ orgId: crypto.randomUUID(), expiresAt: at(100) });
    const reset = oneTimeToken({ kind: "reset", orgId, expiresAt: at(100) });
    for (const t of [old, recent, expired, used, elsewhere, reset]) await storage.oneTimeTokens.create(t);
    expect((await storage.oneTimeTokens.listInvitations(orgId, at(10))).map((t) => t.id)).toEqual([
      recent.id,
      old.id,
    ]);
  });

  test("revoke marks an unused token used; false when absent or used", async (storage) => {
    const t = oneTimeToken({ expiresAt: at(100) });
    await storage.oneTimeTokens.create(t);
    expect(await storage.oneTimeTokens.revoke(t.id, at(3))).toBe(true);
    expect(await storage.oneTimeTokens.revoke(t.id, at(4))).toBe(false);
    expect(await storage.oneTimeTokens.revoke(crypto.randomUUID(), at(4))).toBe(false);
    expect(await storage.oneTimeTokens.consume(t.tokenHash, "invitation", at(5))).toBeNull();
    expect((await storage.oneTimeTokens.get(t.id))?.usedAt).toBe(at(3));
  });
}
