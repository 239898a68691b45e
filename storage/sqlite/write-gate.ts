import type { Database } from "bun:sqlite";
import { answersNow } from "../unavailable.ts";
import type { Statements } from "./statements.ts";
import { isUnavailable } from "./unavailable.ts";

/**
 * While an import commits on its own connection, in slices that give the event loop back between
 * them, that connection holds SQLite's write lock across turns of the event loop. A write on the
 * main connection meanwhile must not wait inside SQLite: busy_timeout sleeps the thread, and the
 * import that would release the lock runs on that very thread. So, while the gate is held, the
 * main connection's busy_timeout is 0 and a method that fails on the lock waits for the import
 * (asynchronously) and runs again. Reads never wait: WAL readers do not need the lock.
 */
export interface WriteGate {
  /** Waits for the gate to be free, then holds it; the returned function releases it. */
  acquire(): Promise<() => void>;
  /** Resolves once the gate is free (at once when it is). */
  free(): Promise<void>;
  readonly held: boolean;
}

/** `s` prepares on `main`, so closing the storage finalizes the gate's statement too. */
export function createWriteGate(main: Database, s: Statements): WriteGate {
  let current: Promise<void> | null = null;
  const timeout = s.prepare<{ timeout: number }, []>("PRAGMA busy_timeout");
  return {
    get held() {
      return current !== null;
    },
    async free() {
      while (current) await current;
    },
    async acquire() {
      while (current) await current;
      let open = () => {};
      current = new Promise<void>((resolve) => {
        open = resolve;
      });
      const waited = Number(timeout.get()?.timeout ?? 0);
      main.run("PRAGMA busy_timeout = 0");
      return () => {
        main.run(`PRAGMA busy_timeout = ${waited}`);
        current = null;
        open();
      };
    },
  };
}

/**
 * The same object, each method run again once the gate is free when it failed on the lock while
 * the gate was held. Storage methods are atomic (one statement or one transaction, run without
 * awaiting in between), so one that failed on the lock changed nothing.
 */
export function behindGate<T extends object>(target: T, gate: WriteGate): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== "function" || answersNow(name)) {
      wrapped[name] = value;
      continue;
    }
    const method = value as (...a: unknown[]) => unknown;
    wrapped[name] = async (...args: unknown[]) => {
      for (;;) {
        const during = gate.held;
        try {
          return await method.apply(target, args);
        } catch (e) {
          if (!isUnavailable(e) || !(during || gate.held)) throw e;
          await gate.free();
        }
      }
    };
  }
  return wrapped as T;
}
