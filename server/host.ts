import type { Database } from "bun:sqlite";
import type { ImportThread } from "../storage/sqlite/import-thread.ts";
import type { WalCheckpointer } from "../storage/sqlite/wal-checkpointer.ts";
import type { ParlanceServer } from "./app.ts";

/** A server that is listening. */
export interface Listening {
  port: number;
  /** Stops accepting connections. */
  stop(): Promise<void>;
}

/**
 * What differs between the runtimes Parlance serves on: how SQLite opens (bun:sqlite or
 * node:sqlite) and how the app listens. Everything else is the same code.
 */
export interface Host {
  openSqlite(path: string): Database;
  /** Checkpoints a SQLite file's log on a thread of its own; without it, SQLite's own checkpoints run. */
  walCheckpointer?(path: string): WalCheckpointer;
  /** Commits a SQLite file's imports on a thread of its own; without it, on a second connection in slices. */
  importThread?(path: string): ImportThread;
  /**
   * Serves `app`. `trustProxy`: the request's own X-Forwarded-For names the client (behind the
   * operator's proxy); otherwise a host that cannot hand the socket peer to the app sets it.
   */
  listen(app: ParlanceServer, hostname: string, port: number, trustProxy: boolean): Promise<Listening>;
  /**
   * A full, synchronous garbage collection, run after imports (server/collect-after-imports.ts);
   * absent where the runtime offers none without a command-line flag (Deno).
   */
  collectGarbage?(): void;
  /**
   * A young-generation collection (a millisecond or so): run at each turn an import's commit gives
   * the event loop, so what binding 50,000 rows' values leaves behind does not pile up (about 25
   * MiB). Absent where the runtime offers none.
   */
  collectYoung?(): void;
  /**
   * Frees what a push's request left and hands the freed pages back to the system (Bun: a full
   * collection, `Bun.gc(true)`, which returns them at once): run for a push's body of 1 MiB or
   * more (COLLECT_AFTER_BODY_BYTES, server/push-body.ts) once its checks passed and before its
   * content is read (server/runtime.ts), so the listener's buffers that gathered it are not
   * resident under the reading's peak, and again once it is released, so its 12 MB and the
   * request's garbage leave the process's resident memory before the import's own working set is
   * built. Absent elsewhere.
   */
  returnFreeMemory?(): void;
  /**
   * True when the listener gathers a body of declared length into one buffer of its own as it
   * arrives, holding only what has arrived and never more than declared (Bun): the app takes that
   * buffer (`arrayBuffer()`) instead of reading the body's chunks (server/body.ts).
   */
  readonly buffersBodies?: boolean;
  /**
   * True when the listener takes string chunks in a streamed response body and writes them as
   * UTF-8 itself (Bun): an export's pieces are sent as they are (server/file-body.ts).
   */
  readonly writesTextChunks?: boolean;
  /** True when the host puts the peer address in X-Forwarded-For itself (the app must read it). */
  readonly setsForwardedFor: boolean;
}
