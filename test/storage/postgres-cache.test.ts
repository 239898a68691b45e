/**
 * The Postgres adapter's instance cache (storage/postgres/row-cache.ts): two stores on one schema
 * stand for two server instances. What one changes, or what plain SQL changes, the other serves
 * within a second; a lost LISTEN connection makes the cache stop serving until it listens again.
 */
import { expect, test } from "bun:test";
import postgres, { type Sql } from "postgres";
import type { Storage } from "../../core/ports.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { apiKey, id, org, project, token } from "../contract/fixtures.ts";
import { createTestSchema, POSTGRES_URL, postgresReachable } from "./postgres-setup.ts";

/** The bound: a change reaches every instance within one second. */
const WITHIN_MS = 1_000;

interface Instance {
  storage: Storage;
  /** Statements this instance's pool has sent (its LISTEN connection and pings aside). */
  queries(): number;
  /** The application_name of its connections, to find them in pg_stat_activity. */
  name: string;
}

async function setUp() {
  const schema = await createTestSchema();
  const clients: Sql[] = [];
  const open = async (): Promise<Instance> => {
    const name = `parlance-cache-${id().slice(0, 8)}`;
    let count = 0;
    const sql = postgres(POSTGRES_URL, {
      max: 2,
      connection: { search_path: schema.name, application_name: name },
      onnotice: () => {},
      debug: (_connection, query) => {
        if (!/pg_notify|LISTEN/i.test(query)) count++;
      },
    });
    clients.push(sql);
    return { storage: await createPostgresStorage(sql), queries: () => count, name };
  };
  const a = await open();
  const b = await open();
  const admin = schema.connect(1);
  return {
    a,
    b,
    admin,
    async teardown() {
      await Promise.all([a.storage.close(), b.storage.close()]);
      await Promise.all(clients.map((c) => c.end({ timeout: 5 })));
      await schema.drop();
    },
  };
}

/** Reads until a read makes no round trip: the feed is fresh and the row cached. */
async function warm(instance: Instance, read: () => Promise<unknown>) {
  const deadline = performance.now() + 10_000;
  for (;;) {
    await read();
    const before = instance.queries();
    await read();
    if (instance.queries() === before) return;
    if (performance.now() > deadline) throw new Error("the cache never started serving");
    await Bun.sleep(20);
  }
}

/** Milliseconds from now until `seen` holds for a read started then (reads every 10 ms). */
async function timeUntil(seen: () => Promise<boolean>): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const started = performance.now();
    if (await seen()) return started - t0;
    if (started - t0 > 5_000) throw new Error("the change never arrived");
    await Bun.sleep(10);
  }
}

if (await postgresReachable()) {
  test("rows read on every request are served from the instance, with no round trip", async () => {
    const { a, teardown } = await setUp();
    try {
      const o = org();
      const p = project(o.id);
      const k = apiKey(o.id);
      const t = token(k.id);
      await a.storage.orgs.create(o);
      await a.storage.projects.create(p);
      await a.storage.keys.create(k);
      await a.storage.tokens.create(t);
      await warm(a, () => a.storage.keys.findByHash(k.hash));
      const before = a.queries();
      expect(await a.storage.keys.findByHash(k.hash)).toEqual(k);
      expect(await a.storage.keys.get(k.id)).toEqual(k);
      expect(await a.storage.projects.get(p.id)).toEqual(p);
      expect(await a.storage.orgs.get(o.id)).toEqual(o);
      expect(await a.storage.tokens.findByHash(t.hash)).toEqual(t);
      // The first reads of get, projects, orgs and tokens loaded; every one after is served here.
      const loaded = a.queries();
      expect(loaded - before).toBeLessThanOrEqual(4);
      for (let i = 0; i < 10; i++) {
        await a.storage.keys.findByHash(k.hash);
        await a.storage.projects.get(p.id);
        await a.storage.tokens.findByHash(t.hash);
      }
      expect(a.queries()).toBe(loaded);
      // Callers get copies: changing one changes nothing cached.
      const got = await a.storage.projects.get(p.id);
      got?.languages.push("xx");
      expect(await a.storage.projects.get(p.id)).toEqual(p);
      // Unknown rows are not cached: each lookup asks the database.
      await a.storage.keys.findByHash("0".repeat(64));
      await a.storage.keys.findByHash("0".repeat(64));
      expect(a.queries()).toBe(loaded + 2);
    } finally {
      await teardown();
    }
  });

  test("a write by this instance is seen by its very next read", async () => {
    const { a, teardown } = await setUp();
    try {
      const o = org();
      const p = project(o.id);
      const k = apiKey(o.id);
      await a.storage.orgs.create(o);
      await a.storage.projects.create(p);
      await a.storage.keys.create(k);
      await warm(a, () => a.storage.keys.findByHash(k.hash));
      await warm(a, () => a.storage.projects.get(p.id));
      await warm(a, () => a.storage.orgs.get(o.id));
      await a.storage.keys.deactivate(k.id);
      expect((await a.storage.keys.findByHash(k.hash))?.active).toBe(false);
      await a.storage.keys.addUsage([{ keyId: k.id, count: 3, lastUsedAt: "2026-01-01T00:00:00.000Z" }]);
      expect((await a.storage.keys.get(k.id))?.usageCount).toBe(3);
      await a.storage.projects.rename(p.id, "Renamed");
      expect((await a.storage.projects.get(p.id))?.name).toBe("Renamed");
      await a.storage.orgs.setQuota(o.id, 7);
      expect((await a.storage.orgs.get(o.id))?.maxTranslations).toBe(7);
    } finally {
      await teardown();
    }
  });

  test("what another instance or plain SQL changes reaches this instance within a second", async () => {
    const { a, b, admin, teardown } = await setUp();
    try {
      const o = org();
      const p = project(o.id);
      const k = apiKey(o.id);
      const other = apiKey(o.id, { name: "other" });
      await a.storage.orgs.create(o);
      await a.storage.projects.create(p);
      await a.storage.keys.create(k);
      await a.storage.keys.create(other);
      await warm(b, () => b.storage.keys.findByHash(k.hash));
      await warm(b, () => b.storage.keys.findByHash(other.hash));
      await warm(b, () => b.storage.projects.get(p.id));
      await warm(b, () => b.storage.orgs.get(o.id));

      await a.storage.keys.deactivate(k.id);
      expect(
        await timeUntil(async () => (await b.storage.keys.findByHash(k.hash))?.active === false),
      ).toBeLessThan(WITHIN_MS);
      await a.storage.projects.softDelete(p.id, "2026-01-01T00:00:00.000Z");
      expect(
        await timeUntil(async () => (await b.storage.projects.get(p.id))?.deletedAt !== null),
      ).toBeLessThan(WITHIN_MS);
      await a.storage.orgs.setQuota(o.id, 5);
      expect(
        await timeUntil(async () => (await b.storage.orgs.get(o.id))?.maxTranslations === 5),
      ).toBeLessThan(WITHIN_MS);
      // An operator's own SQL goes through the same triggers.
      await admin`UPDATE api_keys SET active = false WHERE id = ${other.id}`;
      expect(
        await timeUntil(async () => (await b.storage.keys.findByHash(other.hash))?.active === false),
      ).toBeLessThan(WITHIN_MS);
    } finally {
      await teardown();
    }
  });

  test("when the LISTEN connection is lost, the cache stops serving, listens again and serves again", async () => {
    const { a, b, admin, teardown } = await setUp();
    try {
      const o = org();
      const k = apiKey(o.id);
      const other = apiKey(o.id, { name: "other" });
      await a.storage.orgs.create(o);
      await a.storage.keys.create(k);
      await a.storage.keys.create(other);
      await warm(b, () => b.storage.keys.findByHash(k.hash));
      const listeners = await admin`
        SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
        WHERE application_name = ${b.name} AND query ILIKE 'listen%'`;
      expect(listeners.map((r) => r.done)).toEqual([true]);
      // Changes made while nothing listens are not lost to the cache.
      await a.storage.keys.deactivate(k.id);
      expect(
        await timeUntil(async () => (await b.storage.keys.findByHash(k.hash))?.active === false),
      ).toBeLessThan(WITHIN_MS);
      // Listening again: the cache serves again, and hears changes again.
      await warm(b, () => b.storage.keys.findByHash(other.hash));
      await a.storage.keys.deactivate(other.id);
      expect(
        await timeUntil(async () => (await b.storage.keys.findByHash(other.hash))?.active === false),
      ).toBeLessThan(WITHIN_MS);
    } finally {
      await teardown();
    }
  });
}
