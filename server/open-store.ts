import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import postgres from "postgres";
import { createMemoryRateLimiter } from "../adapters/memory-rate-limiter.ts";
import { createPostgresRateLimiter } from "../adapters/postgres-rate-limiter.ts";
import type { Clock, RateLimiter, Storage } from "../core/index.ts";
import { createMemoryStorage } from "../storage/memory/index.ts";
import { createPostgresStorage, isMigrated } from "../storage/postgres/index.ts";
import type { ImportThread } from "../storage/sqlite/import-thread.ts";
import { createSqliteStorage } from "../storage/sqlite/index.ts";
import type { WalCheckpointer } from "../storage/sqlite/wal-checkpointer.ts";

/**
 * How long a query waits for a connection to open. An unreachable database then answers 503
 * within seconds instead of holding each request for postgres.js's default 30 s.
 */
const CONNECT_TIMEOUT_SECONDS = 3;

/**
 * Seconds a connection waits before it connects again after a failed connect. postgres.js's
 * default grows with every failed connect of the client to 20 s (3^n/100 s) and only falls back when
 * one succeeds, so after an outage a query, and /healthz's probe, could wait that long for the
 * database that is back. Short and capped instead; while the database is down the storage refuses
 * calls without a round trip anyway (storage/postgres/outage-gate.ts), so this hammers no one.
 */
const reconnectDelaySeconds = (failures: number): number =>
  Math.min(0.025 * 2 ** failures, 0.25) * (0.5 + Math.random() / 2);

/** How the server's Postgres client is built (exported for the tests that stop its database). */
export const POSTGRES_CLIENT_OPTIONS = {
  onnotice: () => {},
  connect_timeout: CONNECT_TIMEOUT_SECONDS,
  backoff: reconnectDelaySeconds,
} satisfies postgres.Options<Record<string, postgres.PostgresType>>;

/** A store opened from PARLANCE_DATABASE_URL, with the rate limiter that fits it. */
export interface OpenedStore {
  storage: Storage;
  rateLimiter: RateLimiter;
  /** Closes the adapter, then the client this module opened. */
  close(): Promise<void>;
}

export interface StoreOptions {
  /**
   * Refuse a store that does not exist yet (a missing SQLite file, a Postgres schema without
   * Parlance's tables) rather than create it: for commands that only read or change things.
   */
  mustExist?: boolean;
  /** How the URL was chosen, for messages: "PARLANCE_DATABASE_URL=…" or the default's story. */
  origin?: string;
  /** For a SQLite file: checkpoints its log off the event loop (storage/sqlite/wal-checkpointer.ts). */
  walCheckpointer?: (path: string) => WalCheckpointer;
  /**
   * For a SQLite file: a thread of its own on which import jobs commit (storage/sqlite/import-thread.ts),
   * so their COMMIT (80–130 ms of re-signed log frames under load) never runs on the event loop.
   */
  importThread?: (path: string) => ImportThread;
  /** For a SQLite file: a young-generation collection, run between the slices of an import's commit. */
  collectYoung?: () => void;
}

/** Stores that live inside one process: another process (an operator command) cannot reach them. */
export const isProcessLocal = (url: string): boolean => url === "memory:" || url === "sqlite::memory:";

/**
 * The store a URL names, for people: the scheme and an absolute path, or a Postgres URL without its
 * password or query (which may hold one). Never the URL as given when it could carry a secret.
 */
export function describeStore(url: string): string {
  if (isProcessLocal(url)) return url;
  if (url.startsWith("sqlite:")) return `sqlite:${resolve(url.slice("sqlite:".length))}`;
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    try {
      const u = new URL(url);
      return `${u.protocol}//${u.username ? `${decodeURIComponent(u.username)}@` : ""}${u.host}${u.pathname}`;
    } catch {
      return `${url.split(":")[0]}://(an unreadable URL)`;
    }
  }
  return `${url.split(":")[0]}:`;
}

const NOT_CREATED =
  "Only `parlance serve` and `parlance admin org create` start a new database; run the command in the server's working folder or set PARLANCE_DATABASE_URL to the server's database";

/**
 * `sqlite:<path>` (folder created), `sqlite::memory:`, `memory:` or `postgres://…`. Single-instance
 * stores count rate limits in memory and keep the windows in the store across restarts; Postgres,
 * shared by many instances, counts them in the database, each instance leasing quota in blocks.
 */
export async function openStore(
  url: string,
  clock: Clock,
  openSqlite: (path: string) => Database,
  options: StoreOptions = {},
): Promise<OpenedStore> {
  const origin = options.origin ?? "PARLANCE_DATABASE_URL";
  if (url === "memory:") {
    const storage = createMemoryStorage();
    return {
      storage,
      rateLimiter: await createMemoryRateLimiter(storage.rateWindows, clock),
      close: () => storage.close(),
    };
  }
  if (url.startsWith("sqlite:")) {
    const path = url.slice("sqlite:".length);
    if (path === "")
      throw new Error("PARLANCE_DATABASE_URL sqlite: needs a path, e.g. sqlite:./data/parlance.sqlite");
    if (path !== ":memory:") {
      if (options.mustExist && !existsSync(path))
        throw new Error(`No database at ${resolve(path)} (${origin}). ${NOT_CREATED}.`);
      mkdirSync(dirname(path), { recursive: true });
    }
    const db = openSqlite(path);
    // Imports commit on a connection of their own, in slices, so requests go on meanwhile.
    const importConnection = path === ":memory:" ? undefined : openSqlite(path);
    const checkpointer = importConnection && options.walCheckpointer?.(path);
    const importThread = importConnection && options.importThread?.(path);
    // XLIFF pulls read their rows on a connection of their own while the file is sent.
    const exportConnection = path === ":memory:" ? undefined : openSqlite(path);
    const storage = createSqliteStorage(db, {
      importConnection,
      importThread,
      exportConnection,
      checkpointer,
      betweenSlices: options.collectYoung,
    });
    const rateLimiter = await createMemoryRateLimiter(storage.rateWindows, clock);
    return {
      storage,
      rateLimiter,
      async close() {
        await checkpointer?.close();
        await storage.close();
        await importThread?.close();
        importConnection?.close();
        exportConnection?.close();
        db.close();
      },
    };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const sql = postgres(url, POSTGRES_CLIENT_OPTIONS);
    if (options.mustExist && !(await isMigrated(sql).catch(closeAndThrow(sql)))) {
      await sql.end({ timeout: 5 });
      throw new Error(
        `The database ${describeStore(url)} holds no Parlance tables (${origin}). ${NOT_CREATED}.`,
      );
    }
    const storage = await createPostgresStorage(sql).catch(closeAndThrow(sql));
    return {
      storage,
      rateLimiter: createPostgresRateLimiter(sql),
      async close() {
        await storage.close();
        await sql.end({ timeout: 5 });
      },
    };
  }
  // Only the scheme is echoed: a URL may carry a password.
  throw new Error(
    `Unsupported PARLANCE_DATABASE_URL scheme ${JSON.stringify(url.split(":")[0])}: use sqlite:<path>, sqlite::memory:, memory: or postgres://…`,
  );
}

/** A failed first query must not leave the pool open (the process would not exit). */
const closeAndThrow =
  (sql: postgres.Sql) =>
  async (e: unknown): Promise<never> => {
    await sql.end({ timeout: 1 }).catch(() => {});
    throw e;
  };
