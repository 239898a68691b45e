import type { Sql } from "postgres";
import type { RateWindowStore } from "../../core/ports.ts";
import { num, str } from "./convert.ts";

/** For a single-instance limiter that keeps windows in memory; the shared one is adapters/postgres-rate-limiter.ts. */
export function createRateWindowStore(sql: Sql): RateWindowStore {
  return {
    async load(nowMs) {
      const rows = await sql`SELECT bucket, count, reset_at FROM rate_windows WHERE reset_at > ${nowMs}`;
      return rows.map((r) => ({ bucket: str(r.bucket), count: num(r.count), resetAt: num(r.reset_at) }));
    },
    async save(windows, nowMs) {
      await sql.begin(async (tx) => {
        if (windows.length > 0) {
          await tx`
            INSERT INTO rate_windows (bucket, count, reset_at)
            SELECT * FROM unnest(${tx.array(windows.map((w) => w.bucket))}::text[],
                                 ${tx.array(windows.map((w) => w.count))}::integer[],
                                 ${tx.array(windows.map((w) => w.resetAt))}::bigint[])
            ON CONFLICT (bucket) DO UPDATE SET count = excluded.count, reset_at = excluded.reset_at`;
        }
        await tx`DELETE FROM rate_windows WHERE reset_at < ${nowMs}`;
      });
    },
  };
}
