import type { Database } from "bun:sqlite";
import type { SourcedRow } from "../../core/types.ts";
import { pairSources } from "../paired-sources.ts";
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

export function createExportStream(reader: Database, holdMs = EXPORT_HOLD_MS): ExportStream {
  const s = createStatements(reader);
  // `source` read as NULL: its slot exists before pairSources fills it (see translations.ts).
  const firstRows = s.prepare<SourcedRow, [string, string, number]>(
    `SELECT key, value, status, NULL AS source FROM translations
     WHERE project_id = ? AND language = ? ORDER BY key LIMIT ?`,
  );
  const nextRows = s.prepare<SourcedRow, [string, string, string, number]>(
    `SELECT key, value, status, NULL AS source FROM translations
     WHERE project_id = ? AND language = ? AND key > ? ORDER BY key LIMIT ?`,
  );
  const firstBase = s.prepare<{ key: string; value: string }, [string, string, string]>(
    "SELECT key, value FROM translations WHERE project_id = ? AND language = ? AND key <= ? ORDER BY key",
  );
  const nextBase = s.prepare<{ key: string; value: string }, [string, string, string, string]>(
    `SELECT key, value FROM translations WHERE project_id = ? AND language = ? AND key > ? AND key <= ?
     ORDER BY key`,
  );
  let busy = false;

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
        try {
          reader.run("COMMIT");
        } catch {
          // Only "no transaction is active": SQLite ended it itself after a failed read.
        }
      };
      /** The language's next rows (all that remain when `limit` is -1), with their sources. */
      const page = (limit: number): SourcedRow[] => {
        const rows =
          after === null
            ? firstRows.all(projectId, language, limit)
            : nextRows.all(projectId, language, after, limit);
        const last = rows.at(-1);
        if (!last) return rows;
        const base =
          after === null
            ? firstBase.all(projectId, sourceLanguage, last.key)
            : nextBase.all(projectId, sourceLanguage, after, last.key);
        after = last.key;
        return pairSources(rows, base);
      };
      // The first page here, so its failure is the caller's (a locked database is "unavailable").
      let first: SourcedRow[];
      try {
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
      s.finalizeAll();
    },
  };
}
