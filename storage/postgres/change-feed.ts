import type { Sql } from "postgres";

/**
 * The changes other sessions commit to cached rows, heard through `LISTEN` on the schema's channel
 * (migration 10's triggers send `table:primary key` there), and proof that the feed works: the
 * instance sends itself a ping on the same channel every HEARTBEAT_MS while its cache is read.
 * Postgres delivers notifications in commit order, so once a ping sent at time s has come back,
 * every change committed before s has been heard. The feed is `fresh` while the latest such s is
 * less than STALE_MS old: a cache that serves only while the feed is fresh is never more than
 * STALE_MS behind the database, whatever happens to the connection (closed, silently dead, a
 * pooler that drops notifications): it then stops serving, and reads go to the database.
 */
export interface ChangeFeed {
  /** Whether notifications are known to flow right now; starts the feed on first use. */
  fresh(): boolean;
  /** Stops listening and pinging. */
  close(): Promise<void>;
}

export interface ChangeHandlers {
  /** A row of `table` whose primary key is `id` changed, and the change is committed. */
  changed(table: string, id: string): void;
  /** Changes may have been missed: forget everything cached. */
  reset(): void;
}

export const HEARTBEAT_MS = 200;
export const STALE_MS = 800;
/** No ping after this long without a read: an idle server sends the database nothing. */
const IDLE_MS = 10_000;
/** A feed that has not been fresh for this long listens again (then twice as long, up to a minute). */
const RELISTEN_AFTER_MS = 3_000;
const MAX_UNANSWERED_PINGS = 64;

export function createChangeFeed(sql: Sql, on: ChangeHandlers, now = () => performance.now()): ChangeFeed {
  const token = crypto.randomUUID();
  let state: "idle" | "starting" | "listening" | "closed" = "idle";
  let channel = "";
  let unlisten: (() => Promise<void>) | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let seq = 0;
  const unanswered = new Map<number, number>();
  /** Send time of the latest ping heard back; pings sent before the current LISTEN do not count. */
  let heardAt = Number.NEGATIVE_INFINITY;
  let listenedAt = Number.NEGATIVE_INFINITY;
  let readAt = Number.NEGATIVE_INFINITY;
  let wasFresh = false;
  let relistenAfter = RELISTEN_AFTER_MS;
  let relistenedAt = Number.NEGATIVE_INFINITY;

  const notified = (payload: string) => {
    const colon = payload.indexOf(":");
    if (colon < 0) return;
    const kind = payload.slice(0, colon);
    if (kind !== "ping") return on.changed(kind, payload.slice(colon + 1));
    if (payload.slice(colon + 1, colon + 1 + token.length) !== token) return;
    const n = Number(payload.slice(colon + 2 + token.length));
    const sentAt = unanswered.get(n);
    if (sentAt === undefined) return;
    for (const k of unanswered.keys()) if (k <= n) unanswered.delete(k);
    if (sentAt >= listenedAt && sentAt > heardAt) heardAt = sentAt;
  };

  // Called by postgres.js after the first LISTEN and after each re-LISTEN on a new connection:
  // what was said while the connection was down is lost.
  const listening = () => {
    listenedAt = now();
    heardAt = Number.NEGATIVE_INFINITY;
    unanswered.clear();
    wasFresh = false;
    on.reset();
    ping();
  };

  /** When the ping still in flight was sent: one at a time, so a database that is down gets no pile of them. */
  let pingInFlightSince: number | null = null;
  const ping = () => {
    if (state !== "listening" && state !== "starting") return;
    if (!channel) return;
    const sentAt = now();
    if (pingInFlightSince !== null && sentAt - pingInFlightSince < STALE_MS) return;
    pingInFlightSince = sentAt;
    const n = ++seq;
    unanswered.set(n, sentAt);
    if (unanswered.size > MAX_UNANSWERED_PINGS) unanswered.delete(unanswered.keys().next().value as number);
    const settled = () => {
      if (pingInFlightSince === sentAt) pingInFlightSince = null;
    };
    sql`SELECT pg_notify(${channel}, ${`ping:${token}:${n}`})`.then(settled, settled);
  };

  const listen = async () => {
    const handle = await sql.listen(channel, notified, listening);
    unlisten = handle.unlisten;
  };

  const tick = () => {
    const t = now();
    if (t - readAt > IDLE_MS) return;
    ping();
    // Not fresh for a while although pinging: the LISTEN connection may be gone for good (the
    // client re-listens once after a close, and gives up if that fails). Listen again.
    if (t - heardAt > relistenAfter && t - listenedAt > relistenAfter && t - relistenedAt > relistenAfter) {
      relistenedAt = t;
      relistenAfter = Math.min(relistenAfter * 2, 60_000);
      const old = unlisten;
      unlisten = null;
      void (async () => {
        await old?.().catch(() => {});
        if (state === "listening") await listen();
      })().catch(() => {});
    } else if (t - heardAt <= STALE_MS) relistenAfter = RELISTEN_AFTER_MS;
  };

  const current = () => state;

  const start = () => {
    state = "starting";
    void (async () => {
      const [row] = await sql`SELECT 'parlance_' || md5(current_schema()) AS channel`;
      channel = String(row?.channel);
      await listen();
      // close() may have run meanwhile (state is changed by other closures: read it afresh).
      if (current() === "closed") return void (await unlisten?.().catch(() => {}));
      state = "listening";
      timer = setInterval(tick, HEARTBEAT_MS);
      (timer as { unref?: () => void }).unref?.();
    })().catch(() => {
      // No feed (database unreachable, LISTEN refused): reads go to the database; try again later.
      if (current() !== "starting") return;
      const retry = setTimeout(() => {
        if (state === "starting") state = "idle";
      }, 1_000);
      (retry as { unref?: () => void }).unref?.();
    });
  };

  return {
    fresh() {
      const t = now();
      // The first read after a quiet spell asks for proof at once rather than at the next tick.
      if (t - readAt > IDLE_MS && state === "listening") ping();
      readAt = t;
      if (state === "idle") start();
      const fresh = t - heardAt < STALE_MS;
      if (wasFresh && !fresh) on.reset();
      wasFresh = fresh;
      return fresh;
    },
    async close() {
      state = "closed";
      if (timer) clearInterval(timer);
      await unlisten?.().catch(() => {});
    },
  };
}
