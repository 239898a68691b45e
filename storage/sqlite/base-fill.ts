import type { Database } from "bun:sqlite";
import { type BaseCache, type BaseRow, rowBytes } from "./base-cache.ts";
import type { Statements } from "./statements.ts";

/** Rows of the base a turn while it is read for the cache: about a millisecond. */
const FILL_ROWS = 2500;

export interface BaseFill {
  /**
   * Reads the base of `projectId` for the cache, a page a turn, while the connection is not busy.
   * A fill already running goes on; one (project, language) more waits for it, the latest asked.
   */
  soon(projectId: string, base: string): void;
  /** Takes the next turn later (the connection's export ended). */
  resume(): void;
  stop(): void;
}

/**
 * The base being read for the cache after a pull missed it: a page a turn, each in a snapshot of
 * its own, while `busy()` is false (an export on the connection holds its own transaction).
 * Pages read at one tag are that tag's rows whatever snapshot read them; a tag that changed in
 * between ends the fill. A base whose estimate passes the budget is given up as soon as it does,
 * and the cache remembers its tag, so later misses there read no page of it.
 */
export function createBaseFill(
  reader: Database,
  s: Statements,
  cache: BaseCache,
  busy: () => boolean,
  fillRows = FILL_ROWS,
): BaseFill {
  const tagOf = s.prepare<{ tag: string }, [string, string]>(
    "SELECT tag FROM export_versions WHERE project_id = ? AND language = ?",
  );
  const firstPage = s.prepare<BaseRow, [string, string, number]>(
    "SELECT key, value FROM translations WHERE project_id = ? AND language = ? ORDER BY key LIMIT ?",
  );
  const nextPage = s.prepare<BaseRow, [string, string, string, number]>(
    `SELECT key, value FROM translations WHERE project_id = ? AND language = ? AND key > ?
     ORDER BY key LIMIT ?`,
  );
  let filling: { projectId: string; base: string; step(): void } | undefined;
  let pending: { projectId: string; base: string } | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const later = () => {
    if (!filling || stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => filling?.step(), 0);
    timer.unref?.();
  };
  const commit = () => {
    try {
      reader.run("COMMIT");
    } catch {
      // Only "no transaction is active": SQLite ended it itself after a failed read.
    }
  };
  const start = (projectId: string, base: string) => {
    const rows: BaseRow[] = [];
    let bytes = 0;
    let tag: string | undefined;
    let after: string | null = null;
    const end = () => {
      filling = undefined;
      const next = pending;
      pending = undefined;
      if (next) start(next.projectId, next.base);
    };
    const step = () => {
      if (busy() || stopped) return;
      let ended = false;
      try {
        reader.run("BEGIN");
        const now = tagOf.get(projectId, base)?.tag;
        tag ??= now;
        if (
          now === undefined ||
          now !== tag ||
          cache.get(projectId, base, now) ||
          cache.tooBig(projectId, base, now)
        ) {
          ended = true;
        } else {
          const page =
            after === null
              ? firstPage.all(projectId, base, fillRows)
              : nextPage.all(projectId, base, after, fillRows);
          for (const r of page) {
            rows.push(r);
            bytes += rowBytes(r);
          }
          const last = page.at(-1);
          if (bytes > cache.budget) {
            cache.markTooBig(projectId, base, now);
            ended = true;
          } else if (last && page.length === fillRows) {
            after = last.key;
          } else {
            cache.set(projectId, base, { tag: now, rows });
            ended = true;
          }
        }
      } catch {
        // A locked or failing read keeps nothing: the next pull reads the base itself.
        ended = true;
      } finally {
        commit();
      }
      if (ended) end();
      // The next page, or the (project, language) that waited for this fill.
      if (filling) later();
    };
    filling = { projectId, base, step };
  };
  return {
    soon(projectId, base) {
      if (!filling) start(projectId, base);
      else if (filling.projectId !== projectId || filling.base !== base) pending = { projectId, base };
      later();
    },
    resume: later,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
