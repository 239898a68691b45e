import type { Database } from "bun:sqlite";
import type { NodeSqliteDatabase } from "./node-database.ts";

export type { NodeSqliteDatabase } from "./node-database.ts";

type Fn = (...args: unknown[]) => unknown;

/**
 * Presents a `node:sqlite` connection (Deno, Node) with the subset of bun:sqlite's `Database` that
 * storage/sqlite uses, so one adapter, one schema and one contract suite serve both runtimes.
 */
export function fromNodeSqlite(db: NodeSqliteDatabase): Database {
  let inTransaction = false;
  const prepare = (sql: string) => {
    const statement = db.prepare(sql);
    return {
      get: (...params: unknown[]) => statement.get(...params) ?? null,
      all: (...params: unknown[]) => statement.all(...params),
      run: (...params: unknown[]) => statement.run(...params),
      finalize() {},
    };
  };
  const begin =
    (fn: Fn, mode: "DEFERRED" | "IMMEDIATE" | "EXCLUSIVE") =>
    (...args: unknown[]) => {
      // storage/sqlite never nests transactions; refusing makes a future mistake loud.
      if (inTransaction) throw new Error("nested SQLite transactions are not supported");
      db.exec(`BEGIN ${mode}`);
      inTransaction = true;
      try {
        const result = fn(...args);
        db.exec("COMMIT");
        return result;
      } catch (e) {
        db.exec("ROLLBACK");
        throw e;
      } finally {
        inTransaction = false;
      }
    };
  const wrapper = {
    run(sql: string, params?: unknown[]) {
      if (params === undefined) db.exec(sql);
      else db.prepare(sql).run(...params);
    },
    prepare,
    query: prepare,
    transaction(fn: Fn) {
      return Object.assign(begin(fn, "DEFERRED"), {
        deferred: begin(fn, "DEFERRED"),
        immediate: begin(fn, "IMMEDIATE"),
        exclusive: begin(fn, "EXCLUSIVE"),
      });
    },
    close: () => db.close(),
  };
  return wrapper as unknown as Database;
}
