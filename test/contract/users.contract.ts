import { expect } from "./expect.ts";
import { at } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";
import { user } from "./people-fixtures.ts";

export function userContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › UserStore`);

  test("get and findByEmail are null when absent; count is 0", async (storage) => {
    expect(await storage.users.get(crypto.randomUUID())).toBeNull();
    expect(await storage.users.findByEmail("nobody@example.com")).toBeNull();
    expect(await storage.users.count()).toBe(0);
  });

  test("create then get round-trips every field; findByEmail ignores case", async (storage) => {
    const u = user({ email: "Ana.Lima@Example.COM", name: "Ana Lima" });
    await storage.users.create(u);
    expect(await storage.users.get(u.id)).toEqual(u);
    expect(await storage.users.findByEmail("ana.lima@example.com")).toEqual(u);
    expect(await storage.users.findByEmail("ANA.LIMA@EXAMPLE.COM")).toEqual(u);
    expect(await storage.users.count()).toBe(1);
  });

  test("an email taken in another case is a conflict", async (storage) => {
    await storage.users.create(user({ email: "ana@example.com" }));
    await expect(storage.users.create(user({ email: "ANA@example.com" }))).rejects.toThrow("already exists");
    expect(await storage.users.count()).toBe(1);
  });

  test("update sets name and email; absent fields stay; null when absent", async (storage) => {
    const u = user({ email: "old@example.com", name: "Old" });
    await storage.users.create(u);
    const renamed = await storage.users.update(u.id, { name: "New", email: undefined }, at(5));
    expect(renamed).toEqual({ ...u, name: "New", updatedAt: at(5) });
    const moved = await storage.users.update(u.id, { email: "New@Example.com" }, at(6));
    expect(moved).toEqual({ ...u, name: "New", email: "New@Example.com", updatedAt: at(6) });
    expect(await storage.users.findByEmail("new@example.com")).toEqual(moved);
    expect(await storage.users.findByEmail("old@example.com")).toBeNull();
    expect(await storage.users.update(crypto.randomUUID(), { name: "X" }, at(7))).toBeNull();
  });

  test("update to another user's email is a conflict and changes nothing", async (storage) => {
    const a = user({ email: "a@example.com" });
    const b = user({ email: "b@example.com" });
    await storage.users.create(a);
    await storage.users.create(b);
    await expect(storage.users.update(b.id, { email: "A@example.com" }, at(1))).rejects.toThrow(
      "already exists",
    );
    expect(await storage.users.get(b.id)).toEqual(b);
  });

  test("setPasswordHash replaces the hash; false when absent", async (storage) => {
    const u = user();
    await storage.users.create(u);
    expect(await storage.users.setPasswordHash(u.id, "$argon2id$new", at(3))).toBe(true);
    expect(await storage.users.get(u.id)).toEqual({ ...u, passwordHash: "$argon2id$new", updatedAt: at(3) });
    expect(await storage.users.setPasswordHash(crypto.randomUUID(), "x", at(3))).toBe(false);
  });
}
