import type { SQLQueryBindings } from "bun:sqlite";
import { CONNECTION_PRAGMAS } from "./migrate.ts";

/**
 * One write transaction at a time on a worker thread with a connection of its own to a database
 * file: what an import job commits (tens of thousands of upserts and history entries, and the
 * COMMIT) runs there, so the thread that answers requests only builds the statements' parameters.
 * The transaction is still one SQLite transaction: readers see nothing of it until it commits,
 * and a process killed meanwhile leaves nothing of it. Bun only (bun:sqlite).
 */
export interface ImportThread {
  /** BEGIN IMMEDIATE on the thread's connection (waiting there, not here, for the write lock). */
  begin(): Promise<void>;
  /** Runs a statement in the open transaction; resolves with the rows it changed. */
  run(sql: string, params: SQLQueryBindings[]): Promise<number>;
  /**
   * Queues a statement without waiting for it. Its failure rolls the transaction back there, and
   * `commit` rejects with it.
   */
  send(sql: string, params: SQLQueryBindings[]): void;
  /** Resolves once at most `n` queued statements are left (so a caller does not outrun the thread). */
  drained(n: number): Promise<void>;
  /** COMMIT; rejects (the transaction rolled back) when a queued statement failed. */
  commit(): Promise<void>;
  /** ROLLBACK, when a transaction is still open. */
  rollback(): Promise<void>;
  /** Closes the thread's connection and ends the thread. */
  close(): Promise<void>;
}

/**
 * The worker, as source, for the reason wal-checkpointer.ts gives (a blob starts the same way in
 * the package, the compiled binary and the repository). Each message is `[n, op, sql, params]`;
 * each answer `[n, changes]` or `[n, null, message, code, errno]`. Statements are prepared once
 * per SQL text.
 * After a failed statement the transaction is rolled back and the statements queued behind it
 * are skipped until the caller's COMMIT, which then answers the failure.
 */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db = null;
const prepared = new Map();
let failed = null;
const statement = (sql) => {
  let s = prepared.get(sql);
  if (!s) prepared.set(sql, (s = db.prepare(sql)));
  return s;
};
const fail = (e) => [String(e?.message ?? e), String(e?.code ?? ""), Number(e?.errno ?? 0)];
const end = () => { try { db.run("ROLLBACK"); } catch {} };
self.onmessage = (event) => {
  const [n, op, sql, params] = event.data;
  try {
    if (op === "open") {
      db = new Database(sql);
      for (const pragma of params) db.run(pragma);
    } else if (op === "begin") {
      failed = null;
      db.run("BEGIN IMMEDIATE");
    } else if (op === "run" || op === "send") {
      if (failed) return self.postMessage([n, 0]);
      try {
        return self.postMessage([n, statement(sql).run(...params).changes]);
      } catch (e) {
        if (op === "run") throw e;
        failed = fail(e);
        end();
        return self.postMessage([n, 0]);
      }
    } else if (op === "commit") {
      if (failed) {
        const f = failed;
        failed = null;
        return self.postMessage([n, null, ...f]);
      }
      db.run("COMMIT");
    } else if (op === "rollback") {
      failed = null;
      end();
    } else if (op === "close") {
      for (const s of prepared.values()) s.finalize();
      prepared.clear();
      db?.close();
      db = null;
    }
    self.postMessage([n, 0]);
  } catch (e) {
    self.postMessage([n, null, ...fail(e)]);
  }
};`;

/** An Error as bun:sqlite throws it, so callers can tell a busy database (`code`) as before. */
function sqliteError(message: string, code?: string, errno?: number): Error {
  return Object.assign(new Error(message), { name: "SQLiteError", code, errno });
}

/** A view of part of a buffer is copied: posting it would copy the whole buffer (a 12 MB body). */
const own = (p: SQLQueryBindings): SQLQueryBindings =>
  p instanceof Uint8Array && p.byteLength !== p.buffer.byteLength ? p.slice() : p;

/** Starts the thread and opens its connection to the file at `path`, configured as every other. */
export function createImportThread(path: string): ImportThread {
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(url);
  const waiting = new Map<number, { resolve: (changes: number) => void; reject: (e: Error) => void }>();
  let next = 0;
  let queued = 0;
  let onDrain: (() => void) | null = null;
  worker.onmessage = (event: MessageEvent<[number, number | null, string?, string?, number?]>) => {
    const [n, changes, message, code, errno] = event.data;
    const w = waiting.get(n);
    waiting.delete(n);
    if (!w) {
      queued--;
      onDrain?.();
      return;
    }
    if (message !== undefined) w.reject(sqliteError(message, code, errno));
    else w.resolve(changes ?? 0);
  };
  const ask = (op: string, sql?: string, params?: readonly unknown[]) =>
    new Promise<number>((resolve, reject) => {
      const n = next++;
      waiting.set(n, { resolve, reject });
      worker.postMessage([n, op, sql, params]);
    });
  // Not the journal mode: the storage's connection sets it, maybe at this very moment.
  const opened = ask("open", path, CONNECTION_PRAGMAS);
  opened.catch(() => {}); // told by `begin`
  (worker as { unref?: () => void }).unref?.();
  return {
    async begin() {
      await opened;
      await ask("begin");
    },
    run: (sql, params) => ask("run", sql, params),
    send(sql, params) {
      queued++;
      worker.postMessage([next++, "send", sql, params.map(own)]);
    },
    async drained(n) {
      while (queued > n) await new Promise<void>((resolve) => (onDrain = resolve));
      onDrain = null;
    },
    async commit() {
      await ask("commit");
    },
    async rollback() {
      await ask("rollback");
    },
    async close() {
      await ask("close").catch(() => {});
      worker.terminate();
      URL.revokeObjectURL(url);
    },
  };
}
