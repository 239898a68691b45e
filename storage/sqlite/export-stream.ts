import type { Database } from "bun:sqlite";
import type { SourcedRow } from "../../core/types.ts";
import { pairSources } from "../paired-sources.ts";
import { type BaseCache, type BaseRow, indexAfter } from "./base-cache.ts";
import { createBaseFill } from "./base-fill.ts";
import type { ExportBumps } from "./export-versions.ts";
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

/** Where the base's rows are kept between pulls (base-cache.ts) and what lets them go early. */
export interface KeptBase {
  cache: BaseCache;
  /** The storage's own bumps: a kept base its writes changed is freed at once. */
  bumps?: ExportBumps;
  /** Rows of the base the fill reads a turn (base-fill.ts). */
  fillRows?: number;
}

/** Without `base`, every pull reads the base's rows. */
export function createExportStream(reader: Database, holdMs = EXPORT_HOLD_MS, base?: KeptBase): ExportStream {
  const s = createStatements(reader);
  const tagOf = s.prepare<{ tag: string }, [string, string]>(
    "SELECT tag FROM export_versions WHERE project_id = ? AND language = ?",
  );
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
  let busy = false;
  const fill = base && createBaseFill(reader, s, base.cache, () => busy, base.fillRows);
  const stopListening = base?.bumps?.listen((projectId, languages) => base.cache.drop(projectId, languages));
  const commit = () => {
    try {
      reader.run("COMMIT");
    } catch {
      // Only "no transaction is active": SQLite ended it itself after a failed read.
    }
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
        if (missed) fill?.soon(projectId, sourceLanguage);
        else fill?.resume();
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
        const cache = base?.cache;
        const tag = cache && tagOf.get(projectId, sourceLanguage)?.tag;
        hit = tag === undefined ? undefined : cache?.get(projectId, sourceLanguage, tag)?.rows;
        // A base known to pass the budget at this tag is not read again for the cache.
        missed = tag !== undefined && !hit && !cache?.tooBig(projectId, sourceLanguage, tag);
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
      fill?.stop();
      stopListening?.();
      s.finalizeAll();
    },
  };
}
