/**
 * The Postgres store and rate limiter on a client built as the server builds it, with their
 * database stopped under a steady stream of calls: every call that needs the database rejects with
 * "unavailable" within two seconds however long the outage lasts (left to postgres.js, calls waited
 * out its reconnect delay, which reached 10–20 s after two seconds of failed connects, and queued
 * behind one another: storage/postgres/outage-gate.ts), no cached row is served past the change
 * feed's freshness window, and started again the store answers by itself within seconds, its rows
 * intact, and serves from its cache again.
 */
import { afterAll, expect, test } from "bun:test";
import postgres from "postgres";
import { createPostgresRateLimiter } from "../../adapters/postgres-rate-limiter.ts";
import { isParlanceError } from "../../core/errors.ts";
import { POSTGRES_CLIENT_OPTIONS } from "../../server/open-store.ts";
import { STALE_MS } from "../../storage/postgres/change-feed.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { apiKey, org, project } from "../contract/fixtures.ts";
import { type PrivateCluster, startPrivateCluster } from "../support/private-postgres.ts";

/** Longer than postgres.js takes to push its reconnect delay to the 20 s ceiling (about two seconds). */
const OUTAGE_MS = 6_000;
/** A call needing the database answers within this while it is down (calls queued in the client when it went down included). */
const ANSWER_MS = 2_000;
/** A call given up on as hung. */
const HUNG_MS = 10_000;

const cluster: PrivateCluster | null = await startPrivateCluster();

if (cluster) {
  afterAll(() => cluster.destroy(), 60_000);

  test("database stopped under a stream of calls: each answers 'unavailable' within two seconds; started again: the store recovers with its rows and serves from its cache again", async () => {
    let roundTrips = 0;
    const sql = postgres(cluster.url, {
      ...POSTGRES_CLIENT_OPTIONS,
      // Statements of the store and the limiter; the feed's pings, LISTEN and the gate's probe aside.
      debug: (_connection, query) => {
        if (!/pg_notify|LISTEN|^SELECT 1$/i.test(query.trim())) roundTrips++;
      },
    });
    const storage = await createPostgresStorage(sql);
    const rateLimiter = createPostgresRateLimiter(sql);
    /** Reads the key until a read makes no round trip: the feed is fresh and the row cached. */
    const servedFromCache = async (withinMs: number) => {
      const deadline = performance.now() + withinMs;
      for (;;) {
        const before = roundTrips;
        expect(await storage.keys.findByHash(k.hash)).toEqual(k);
        if (roundTrips === before) return;
        if (performance.now() > deadline)
          throw new Error(`reads still make round trips after ${withinMs} ms`);
        await Bun.sleep(50);
      }
    };
    const o = org();
    const p = project(o.id);
    const k = apiKey(o.id);
    try {
      await storage.orgs.create(o);
      await storage.projects.create(p);
      await storage.keys.create(k);
      const consume = () => rateLimiter.consume(`key:${k.id}`, 10_000, 3_600_000, Date.now());
      // Warm: the change feed listens and the rows are cached.
      await servedFromCache(10_000);
      expect((await consume()).allowed).toBe(true);

      await cluster.stop();
      const stoppedAt = performance.now();
      const calls: { name: string; startedAt: number; outcome: Promise<{ ms: number; result: string }> }[] =
        [];
      const timed = (name: string, call: () => Promise<unknown>) => {
        const startedAt = performance.now();
        const outcome = Promise.race([
          call().then(
            () => "resolved",
            (e: unknown) => (isParlanceError(e) ? e.code : `threw ${String(e)}`),
          ),
          Bun.sleep(HUNG_MS).then(() => "hung"),
        ]).then((result) => ({ ms: performance.now() - startedAt, result }));
        calls.push({ name, startedAt, outcome });
      };
      // Bursts of concurrent calls, as a busy instance makes them, for the whole outage.
      while (performance.now() - stoppedAt < OUTAGE_MS) {
        for (let i = 0; i < 8; i++) {
          timed("keys.findByHash", () => storage.keys.findByHash(k.hash));
          timed("projects.get", () => storage.projects.get(p.id));
          timed("orgs.get", () => storage.orgs.get(o.id));
          timed("keys.create", () => storage.keys.create(apiKey(o.id)));
          timed("ping", () => storage.ping());
          timed("consume", consume);
        }
        await Bun.sleep(100);
      }
      const settled = await Promise.all(
        calls.map(async (c) => ({ ...c, ...(await c.outcome), after: c.startedAt - stoppedAt })),
      );
      const slow = settled.filter((c) => c.ms > ANSWER_MS);
      expect(
        slow.map((c) => `${c.name} at +${c.after.toFixed(0)} ms: ${c.result} after ${c.ms.toFixed(0)} ms`),
      ).toEqual([]);
      // Past the feed's freshness window nothing is served from the instance: every call is refused.
      const late = settled.filter((c) => c.after > STALE_MS + 200);
      expect(late.length).toBeGreaterThan(1_000);
      expect(late.filter((c) => c.result !== "unavailable").map((c) => `${c.name}: ${c.result}`)).toEqual([]);

      await cluster.start();
      const startedAt = performance.now();
      for (;;) {
        const ok = await storage.ping().then(
          () => true,
          () => false,
        );
        if (ok) break;
        if (performance.now() - startedAt > 5_000) throw new Error("the store did not recover within 5 s");
        await Bun.sleep(50);
      }
      expect(await storage.keys.findByHash(k.hash)).toEqual(k);
      expect(await storage.projects.get(p.id)).toEqual(p);
      expect((await consume()).allowed).toBe(true);
      const after = apiKey(o.id);
      await storage.keys.create(after);
      expect(await storage.keys.findByHash(after.hash)).toEqual(after);
      // The feed listens again by itself: reads are served from the instance again.
      await servedFromCache(5_000);
    } finally {
      await storage.close();
      await sql.end({ timeout: 1 });
    }
  }, 120_000);
}
