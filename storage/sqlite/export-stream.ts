import type { Database } from "bun:sqlite";
import type { SourcedRow } from "../../core/types.ts";
import { pairSources } from "../paired-sources.ts";
import { type BaseCache, type BaseRow, indexAfter } from "./base-cache.ts";
import { onExportVersionBump } from "./export-versions.ts";
import { createStatements } from "./statements.ts";

/**
 * XLIFF's rows (a language with its base's values) read page by page while the file is sent, on a
 * connection of their own, in one read transaction: the client receives the first pages while the
 * server reads the next, instead of idling through the whole read (on two cores the read and the
 * client's receipt then overlap). One snapshot for the whole file, as the whole read has; the
 * main connection never holds an open statement, so its writes commit as before.
 */

/** Rows of the language per page (and the base's rows of the same key range): a few milliseconds. */
const PAGE_ROWS = 1000;
/** Rows of the base a turn while it is read for the cache: about a millisecond. */
const FILL_ROWS = 2500;
/**
 * Longest a snapshot is held: then the rest is read at once and the transaction ends, so a slow or
 * vanished client never keeps the log from being checkpointed past this.
 */
export const EXPORT_HOLD_MS = 1000;

export interface ExportStream {
  /**
   * The rows of `language` with their `source` from `sourceLanguage`, in key order, read as they
   * are consumed; null when another export is reading on the connection (the caller reads whole).
   */
  open(projectId: string, language: string, sourceLanguage: string): Iterable<SourcedRow> | null;
  close(): void;
}

/**
 * `cache`: where the base's rows are kept between pulls (base-cache.ts), read `fillRows` a turn;
 * without it every pull reads them.
 */
export function createExportStream(
  reader: Database,
  holdMs = EXPORT_HOLD_MS,
  cache?: BaseCache,
  fillRows = FILL_ROWS,
): ExportStream {
  const s = createStatements(reader);
  const tagOf = s.prepare<{ tag: string }, [string, string]>(
    "SELECT tag FROM export_versions WHERE project_id = ? AND language = ?",
  );
  const stopListening =
    cache && onExportVersionBump((projectId, languages) => cache.drop(projectId, languages));
  // `source` read as NULL: its slot exists before pairSources fills it (see translations.ts).
  const firstRows = s.prepare<SourcedRow, [string, string, number]>(
    `SELECT key, value, status, NULL AS source FROM translations
     WHERE project_id = ? AND language = ? ORDER BY key LIMIT ?`,
  );
  const nextRows = s.prepare<SourcedRow, [string, string, string, number]>(
    `SELECT key, value, status, NULL AS source FROM translations
     WHERE project_id = ? AND language = ? AND key > ? ORDER BY key LIMIT ?`,
  );
  const firstBase = s.prepare<BaseRow, [string, string, string]>(
    "SELECT key, value FROM translations WHERE project_id = ? AND language = ? AND key <= ? ORDER BY key",
  );
  const nextBase = s.prepare<BaseRow, [string, string, string, string]>(
    `SELECT key, value FROM translations WHERE project_id = ? AND language = ? AND key > ? AND key <= ?
     ORDER BY key`,
  );
  const firstBasePage = s.prepare<BaseRow, [string, string, number]>(
    "SELECT key, value FROM translations WHERE project_id = ? AND language = ? ORDER BY key LIMIT ?",
  );
  const nextBasePage = s.prepare<BaseRow, [string, string, string, number]>(
    `SELECT key, value FROM translations WHERE project_id = ? AND language = ? AND key > ?
     ORDER BY key LIMIT ?`,
  );
  let busy = false;
  let closed = false;
  const commit = () => {
    try {
      reader.run("COMMIT");
    } catch {
      // Only "no transaction is active": SQLite ended it itself after a failed read.
    }
  };
  /**
   * The base being read for the cache after a pull missed it: a page a turn, each in a snapshot of
   * its own, while no export reads (the end of an export resumes it). Pages read at one tag are
   * that tag's rows whatever snapshot read them; a tag that changed in between ends the fill.
   */
  let filling: { step(): void } | undefined;
  let fillTimer: ReturnType<typeof setTimeout> | undefined;
  const fillLater = () => {
    if (!filling || closed) return;
    clearTimeout(fillTimer);
    fillTimer = setTimeout(() => filling?.step(), 0);
    fillTimer.unref?.();
  };
  const fillSoon = (projectId: string, base: string) => {
    if (cache && !filling) {
      const rows: BaseRow[] = [];
      let tag: string | undefined;
      let after: string | null = null;
      const step = () => {
        if (busy || closed) return;
        let more = false;
        try {
          reader.run("BEGIN");
          const now = tagOf.get(projectId, base)?.tag;
          tag ??= now;
          if (now === undefined || now !== tag || cache.get(projectId, base, now)) {
            filling = undefined;
          } else {
            const page =
              after === null
                ? firstBasePage.all(projectId, base, fillRows)
                : nextBasePage.all(projectId, base, after, fillRows);
            for (const r of page) rows.push(r);
            const last = page.at(-1);
            if (last && page.length === fillRows) {
              after = last.key;
              more = true;
            } else {
              cache.set(projectId, base, { tag: now, rows });
              filling = undefined;
            }
          }
        } catch {
          // A locked or failing read keeps nothing: the next pull reads the base itself.
          filling = undefined;
        } finally {
          commit();
        }
        if (more) fillLater();
      };
      filling = { step };
    }
    fillLater();
  };

  return {
    open(projectId, language, sourceLanguage) {
      if (busy) return null;
      busy = true;
      reader.run("BEGIN");
      let done = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let after: string | null = null;
      // Pages read at once when the hold ran out, given out before the transaction's end is noticed.
      const ahead: SourcedRow[][] = [];
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        busy = false;
        commit();
        // Kept for the next pulls, read after this one: holding this read's base rows through
        // it would make it slower (its collections mark them).
        if (missed) fillSoon(projectId, sourceLanguage);
        else fillLater();
      };
      // The base as this snapshot has it, when it was kept at the same tag (base-cache.ts).
      let hit: readonly BaseRow[] | undefined;
      let at = 0;
      let missed = false;
      /** The base's rows with a key after `after`, up to `last`. */
      const baseThrough = (last: string): readonly BaseRow[] => {
        if (hit) {
          const end = indexAfter(hit, last, at);
          const rows = hit.slice(at, end);
          at = end;
          return rows;
        }
        return after === null
          ? firstBase.all(projectId, sourceLanguage, last)
          : nextBase.all(projectId, sourceLanguage, after, last);
      };
      /** The language's next rows (all that remain when `limit` is -1), with their sources. */
      const page = (limit: number): SourcedRow[] => {
        const rows =
          after === null
            ? firstRows.all(projectId, language, limit)
            : nextRows.all(projectId, language, after, limit);
        const last = rows.at(-1);
        if (!last) return rows;
        pairSources(rows, baseThrough(last.key));
        after = last.key;
        return rows;
      };
      // The first page here, so its failure is the caller's (a locked database is "unavailable").
      let first: SourcedRow[];
      try {
        // The tag first: the snapshot begins with this read, so rows read after it match it.
        const tag = cache ? tagOf.get(projectId, sourceLanguage)?.tag : undefined;
        hit = tag === undefined ? undefined : cache?.get(projectId, sourceLanguage, tag)?.rows;
        missed = tag !== undefined && !hit;
        first = page(PAGE_ROWS);
      } catch (e) {
        finish();
        throw e;
      }
      if (first.length < PAGE_ROWS) {
        finish();
        return first;
      }
      timer = setTimeout(() => {
        if (done) return;
        try {
          ahead.push(page(-1));
        } finally {
          finish();
        }
      }, holdMs);
      timer.unref?.();
      return (function* () {
        try {
          yield* first;
          for (;;) {
            const read = ahead.shift();
            if (read) {
              yield* read;
              continue;
            }
            if (done) return;
            const rows = page(PAGE_ROWS);
            if (rows.length < PAGE_ROWS) finish();
            yield* rows;
          }
        } finally {
          finish();
        }
      })();
    },
    close() {
      closed = true;
      clearTimeout(fillTimer);
      stopListening?.();
      s.finalizeAll();
    },
  };
}
