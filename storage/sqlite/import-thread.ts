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
  /**
   * Queues, for each of `rows`, the statements of `plan` (see EachPlan), without waiting: one
   * message for a chunk of rows whose statements depend on what an earlier one returned there.
   */
  each(
    plan: EachPlan,
    shared: readonly SQLQueryBindings[],
    rows: readonly (readonly SQLQueryBindings[])[],
  ): void;
  /** How many queued statements (`send`, `each`) the thread has not answered yet. */
  queued(): number;
  /** Resolves once at most `n` queued statements are left (so a caller does not outrun the thread). */
  drained(n: number): Promise<void>;
  /** COMMIT; rejects (the transaction rolled back) when a queued statement failed. */
  commit(): Promise<void>;
  /** ROLLBACK, when a transaction is still open. */
  rollback(): Promise<void>;
  /** Closes the thread's connection and ends the thread. */
  close(): Promise<void>;
}

/** A statement and where its parameters come from (indexes, see EachPlan). */
export interface PlannedStatement {
  sql: string;
  params: readonly number[];
}

/**
 * Per row: `first` runs (with RETURNING); when it returned a row, `found` runs, else `missing`.
 * Parameter indexes count through the shared parameters, then the row's, then (for `found`) the
 * values `first` returned, in its RETURNING order. So the statements stay where they are written
 * (import-writes.ts) and the thread stays generic.
 */
export interface EachPlan {
  first: PlannedStatement;
  found: readonly PlannedStatement[];
  missing: readonly PlannedStatement[];
}

/**
 * The thread's nice value (Linux sets it per thread; the thread that answers requests keeps 0):
 * on two busy cores an import at the same priority took its turns from the event loop (the stall
 * figure lost at load 3), while at 10 it got so little that the 10 % push took longer
 * (docs/benchmarks.md, "The import thread, seventh pass"). Not raised later: lowering it again
 * needs a privilege a server rarely has.
 */
export const IMPORT_THREAD_NICE = 4;

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
import { dlopen } from "bun:ffi";
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
const nice = (value) => {
  if (process.platform !== "linux") return;
  try {
    const libc = dlopen("libc.so.6", {
      gettid: { args: [], returns: "i32" },
      setpriority: { args: ["i32", "u32", "i32"], returns: "i32" },
    });
    libc.symbols.setpriority(0, libc.symbols.gettid(), value);
    libc.close();
  } catch {}
};
const pick = (plan, values) => plan.params.map((i) => values[i]);
const each = ([plan, shared, rows]) => {
  const first = statement(plan.first.sql);
  for (const row of rows) {
    const values = shared.concat(row);
    const got = first.values(...pick(plan.first, values))[0];
    for (const p of got ? plan.found : plan.missing)
      statement(p.sql).run(...pick(p, got ? values.concat(got) : values));
  }
  return rows.length;
};
const work = (n, op, sql, params) => {
  try {
    if (op === "open") {
      db = new Database(sql);
      for (const pragma of params) db.run(pragma);
      nice(${IMPORT_THREAD_NICE});
    } else if (op === "begin") {
      failed = null;
      db.run("BEGIN IMMEDIATE");
    } else if (op === "run" || op === "send" || op === "each") {
      if (failed) return self.postMessage([n, 0]);
      try {
        if (typeof params === "string") params = JSON.parse(params);
        return self.postMessage([n, op === "each" ? each(params) : statement(sql).run(...params).changes]);
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
      // Answered first: the import is done once committed. Then what the transaction's parameters
      // left is collected here, off the event loop, and the connection's page cache handed back
      // (this thread's memory counts at the next push's peak); the next message waits for both.
      self.postMessage([n, 0]);
      try {
        db.run("PRAGMA shrink_memory");
      } catch {}
      Bun.gc(true);
      return;
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
};
// No young collections forced here: they took 3–6 % of the thread's time, which is an import's,
// and left a push's peak where it was (docs/benchmarks.md, "The import thread, tenth pass").
self.onmessage = (event) => {
  const [n, op, sql, params] = event.data;
  work(n, op, sql, params);
};`;

/** An Error as bun:sqlite throws it, so callers can tell a busy database (`code`) as before. */
function sqliteError(message: string, code?: string, errno?: number): Error {
  return Object.assign(new Error(message), { name: "SQLiteError", code, errno });
}

/** A view of part of a buffer is copied: posting it would copy the whole buffer (a 12 MB body). */
const own = (p: SQLQueryBindings): SQLQueryBindings =>
  p instanceof Uint8Array && p.byteLength !== p.buffer.byteLength ? p.slice() : p;

/** Whether JSON carries a value exactly (strings, finite numbers, booleans, null). */
const jsonExact = (v: unknown): boolean =>
  v === null ||
  typeof v === "string" ||
  typeof v === "boolean" ||
  (typeof v === "number" && Number.isFinite(v)) ||
  (Array.isArray(v) && v.every(jsonExact));

/**
 * Parameters as JSON text, parsed there, unless they hold bytes, a bigint or a non-finite number:
 * cloning a chunk's values cost about twice the CPU of its JSON text (docs/benchmarks.md, "The
 * import thread, seventh pass"). JSON keeps a lone surrogate (escaped) and a NUL.
 */
function packParams(params: readonly SQLQueryBindings[]): string | SQLQueryBindings[] {
  return jsonExact(params) ? JSON.stringify(params) : params.map(own);
}

/** Starts the thread and opens its connection to the file at `path`, configured as every other. */
export function createImportThread(path: string): ImportThread {
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  // smol: a heap that grows less, its memory counted at a push's peak beside this thread's.
  const worker = new Worker(url, { smol: true } as WorkerOptions);
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
  const ask = (op: string, sql?: string, params?: unknown) =>
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
    run: (sql, params) => ask("run", sql, packParams(params)),
    send(sql, params) {
      queued++;
      worker.postMessage([next++, "send", sql, packParams(params)]);
    },
    each(plan, shared, rows) {
      queued++;
      const packed = jsonExact(shared) && jsonExact(rows);
      worker.postMessage([
        next++,
        "each",
        null,
        packed ? JSON.stringify([plan, shared, rows]) : [plan, shared.map(own), rows.map((r) => r.map(own))],
      ]);
    },
    queued: () => queued,
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
