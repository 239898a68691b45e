import { edenGC } from "bun:jsc";
import { Database } from "bun:sqlite";
import { createWalCheckpointer } from "../storage/sqlite/wal-checkpointer.ts";
import type { ParlanceServer } from "./app.ts";
import type { Host, Listening } from "./host.ts";

/** Seconds a connection may stay silent mid-request or between requests (Bun's default is 10). */
export const IDLE_TIMEOUT_SECONDS = 30;

/**
 * Elysia turns SO_REUSEPORT on by default: a second server on a busy port then starts without a
 * word and the kernel splits the connections between the two (each with its own store). Off, the
 * second one fails with EADDRINUSE, as a port in use should.
 */
async function listen(app: ParlanceServer, hostname: string, port: number): Promise<Listening> {
  // idleTimeout: a connection that sends nothing for 30 s is closed (slow-loris senders).
  const server = app.listen({ port, hostname, reusePort: false, idleTimeout: IDLE_TIMEOUT_SECONDS }).server;
  return {
    port: server?.port ?? port,
    async stop() {
      await app.stop();
    },
  };
}

/** Bun: bun:sqlite, and Elysia's own listener (Bun.serve). */
export const bunHost: Host = {
  openSqlite: (path) => new Database(path, { create: true }),
  walCheckpointer: createWalCheckpointer,
  // No import thread (storage/sqlite/import-thread.ts) yet: it takes the import's COMMIT off the
  // event loop (the stall figure lower in 6 pairs of 6 over two passes, under 50 ms in none) but
  // costs a new language's push (worse in 6 of 6) and a 12 MB push's peak 3–4 MiB; at nice 4 on a
  // shared machine it gets a fraction of a core (docs/benchmarks.md, "The import thread, tenth
  // pass"). `importThread: createImportThread` starts it (branch thread10-on).
  collectGarbage: () => Bun.gc(true),
  collectYoung: () => {
    edenGC();
  },
  // Not Bun.shrink(): that is JSC's shrinkFootprintWhenIdle, which also discards every function's
  // compiled code when the running call returns, before the 202 is written; the push's job then
  // ran from the interpreter and compiled it all again, 150–250 ms of CPU a push
  // (docs/benchmarks.md, "Push memory, seventh pass"). The collection and the pages are the gain.
  returnFreeMemory: () => {
    Bun.gc(true);
  },
  listen,
  setsForwardedFor: false,
  buffersBodies: true,
  writesTextChunks: true,
};
