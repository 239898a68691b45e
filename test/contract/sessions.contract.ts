import { expect } from "./expect.ts";
import { at } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";
import { seedOrgAndUser, session, user } from "./people-fixtures.ts";

export function sessionContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › SessionStore`);

  test("findByHash is null when absent", async (storage) => {
    expect(await storage.sessions.findByHash("a".repeat(64))).toBeNull();
  });

  test("create then findByHash round-trips every field", async (storage) => {
    const { user: u } = await seedOrgAndUser(storage);
    const s = session(u.id);
    const bare = session(u.id, { userAgent: null });
    await storage.sessions.create(s);
    await storage.sessions.create(bare);
    expect(await storage.sessions.findByHash(s.tokenHash)).toEqual(s);
    expect(await storage.sessions.findByHash(bare.tokenHash)).toEqual(bare);
  });

  test("touch sets the last use and the idle expiry; false when gone", async (storage) => {
    const { user: u } = await seedOrgAndUser(storage);
    const s = session(u.id);
    await storage.sessions.create(s);
    expect(await storage.sessions.touch(s.id, at(10), at(110))).toBe(true);
    expect(await storage.sessions.findByHash(s.tokenHash)).toEqual({
      ...s,
      lastUsedAt: at(10),
      idleExpiresAt: at(110),
    });
    expect(await storage.sessions.touch(crypto.randomUUID(), at(10), at(110))).toBe(false);
  });

  test("listByUser shows live sessions only, most recently used first", async (storage) => {
    const { user: u } = await seedOrgAndUser(storage);
    const older = session(u.id, { lastUsedAt: at(1) });
    const newer = session(u.id, { lastUsedAt: at(5) });
    const idle = session(u.id, { idleExpiresAt: at(9) });
    const ended = session(u.id, { absoluteExpiresAt: at(9) });
    const someoneElse = user();
    await storage.users.create(someoneElse);
    for (const s of [older, newer, idle, ended, session(someoneElse.id)]) await storage.sessions.create(s);
    expect((await storage.sessions.listByUser(u.id, at(10))).map((s) => s.id)).toEqual([newer.id, older.id]);
  });

  test("delete removes only the user's own session", async (storage) => {
    const { user: u } = await seedOrgAndUser(storage);
    const s = session(u.id);
    await storage.sessions.create(s);
    expect(await storage.sessions.delete(s.id, crypto.randomUUID())).toBe(false);
    expect(await storage.sessions.delete(s.id, u.id)).toBe(true);
    expect(await storage.sessions.findByHash(s.tokenHash)).toBeNull();
    expect(await storage.sessions.delete(s.id, u.id)).toBe(false);
  });

  test("deleteForUser ends every other session of the user, and no one else's", async (storage) => {
    const { user: u } = await seedOrgAndUser(storage);
    const other = user();
    await storage.users.create(other);
    const keep = session(u.id);
    const a = session(u.id);
    const b = session(u.id);
    const theirs = session(other.id);
    for (const s of [keep, a, b, theirs]) await storage.sessions.create(s);
    expect(await storage.sessions.deleteForUser(u.id, keep.id)).toBe(2);
    expect(await storage.sessions.findByHash(keep.tokenHash)).toEqual(keep);
    expect(await storage.sessions.findByHash(a.tokenHash)).toBeNull();
    expect(await storage.sessions.findByHash(theirs.tokenHash)).toEqual(theirs);
    expect(await storage.sessions.deleteForUser(u.id, null)).toBe(1);
    expect(await storage.sessions.findByHash(keep.tokenHash)).toBeNull();
  });

  test("deleteExpired removes idle-expired and absolutely expired sessions", async (storage) => {
    const { user: u } = await seedOrgAndUser(storage);
    const live = session(u.id, { idleExpiresAt: at(50), absoluteExpiresAt: at(60) });
    const idle = session(u.id, { idleExpiresAt: at(5) });
    const ended = session(u.id, { absoluteExpiresAt: at(5) });
    for (const s of [live, idle, ended]) await storage.sessions.create(s);
    expect(await storage.sessions.deleteExpired(at(10))).toBe(2);
    expect(await storage.sessions.findByHash(live.tokenHash)).toEqual(live);
    expect(await storage.sessions.deleteExpired(at(10))).toBe(0);
  });
}
