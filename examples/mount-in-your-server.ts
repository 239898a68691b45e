/**
 * Serving Parlance's /api/v1 from your own Bun server beside your routes, on a SQLite file.
 * Run: bun examples/mount-in-your-server.ts   (then curl localhost:3000/healthz)
 */
import { Database } from "bun:sqlite";
import { runtimeHasher } from "../adapters/hasher.ts";
import { createMemoryRateLimiter } from "../adapters/memory-rate-limiter.ts";
import { createPQueueJobQueue } from "../adapters/p-queue-job-queue.ts";
import { systemClock } from "../adapters/system-clock.ts";
import { createParlance } from "../core/index.ts";
import { createServer } from "../server/app.ts";
import { createSqliteStorage } from "../storage/sqlite/index.ts";

const db = new Database("./example.sqlite", { create: true });
const storage = createSqliteStorage(db);
const parlance = createParlance({
  storage,
  queue: createPQueueJobQueue(),
  clock: systemClock,
  rateLimiter: await createMemoryRateLimiter(storage.rateWindows, systemClock),
  hasher: runtimeHasher,
});
await parlance.start(); // resumes import jobs a previous run left unfinished
const api = createServer(parlance);

Bun.serve({
  port: 3000,
  fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/") return new Response("my app");
    return api.handle(request);
  },
});
