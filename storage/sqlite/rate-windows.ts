import type { Database } from "bun:sqlite";
import type { RateWindow, RateWindowStore } from "../../core/ports.ts";
import { int, type Statements } from "./statements.ts";

interface WindowRow {
  bucket: string;
  count: number | bigint;
  reset_at: number | bigint;
}

export function createSqliteRateWindowStore(db: Database, s: Statements): RateWindowStore {
  const select = s.prepare<WindowRow, [number]>(
    "SELECT bucket, count, reset_at FROM rate_windows WHERE reset_at > ?",
  );
  const upsert = s.prepare<never, [string, number, number]>(
    `INSERT INTO rate_windows (bucket, count, reset_at) VALUES (?, ?, ?)
     ON CONFLICT (bucket) DO UPDATE SET count = excluded.count, reset_at = excluded.reset_at`,
  );
  // A window ending at `nowMs` can never be loaded again (load wants windows ending after now).
  const dropEnded = s.prepare<never, [number]>("DELETE FROM rate_windows WHERE reset_at <= ?");
  const saveTx = db.transaction((windows: RateWindow[], nowMs: number) => {
    for (const w of windows) upsert.run(w.bucket, w.count, w.resetAt);
    dropEnded.run(nowMs);
  });
  return {
    async load(nowMs) {
      return select
        .all(nowMs)
        .map((r) => ({ bucket: r.bucket, count: int(r.count), resetAt: int(r.reset_at) }));
    },
    async save(windows, nowMs) {
      saveTx.immediate(windows, nowMs);
    },
  };
}
