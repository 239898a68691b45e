import type { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import postgres from "postgres";
import { createMemoryRateLimiter } from "../adapters/memory-rate-limiter.ts";
import { createPostgresRateLimiter } from "../adapters/postgres-rate-limiter.ts";
import type { Clock, RateLimiter, Storage } from "../core/index.ts";
import { createMemoryStorage } from "../storage/memory/index.ts";
import { createPostgresStorage } from "../storage/postgres/index.ts";
import { createSqliteStorage } from "../storage/sqlite/index.ts";

/** A store opened from PARLANCE_DATABASE_URL, with the rate limiter that fits it. */
export interface OpenedStore {
  storage: Storage;
  rateLimiter: RateLimiter;
  /** Closes the adapter, then the client this module opened. */
  close(): Promise<void>;
}

/**
 * `sqlite:<path>` (folder created), `sqlite::memory:`, `memory:` or `postgres://…`. Single-instance
 * stores count rate limits in memory and keep the windows in the store across restarts; Postgres,
 * shared by many instances, counts them in the database, one atomic statement per request.
 */
export async function openStore(
  url: string,
  clock: Clock,
  openSqlite: (path: string) => Database,
): Promise<OpenedStore> {
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
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const db = openSqlite(path);
    const storage = createSqliteStorage(db);
    const rateLimiter = await createMemoryRateLimiter(storage.rateWindows, clock);
    return {
      storage,
      rateLimiter,
      async close() {
        await storage.close();
        db.close();
      },
    };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const sql = postgres(url, { onnotice: () => {} });
    const storage = await createPostgresStorage(sql);
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
