import { postgresReachable } from "../storage/postgres-setup.ts";
import type { StoreKind } from "../support/harness.ts";

/**
 * The stores a fuzz run covers: those PARLANCE_FUZZ_STORES names (`memory,sqlite,postgres`), else
 * every store, Postgres whenever it is reachable as for every HTTP suite: its text refuses U+0000,
 * so input that the other stores take quietly can fail only there.
 */
export async function fuzzStores(): Promise<StoreKind[]> {
  const named = process.env.PARLANCE_FUZZ_STORES;
  if (named) return named.split(",") as StoreKind[];
  return (await postgresReachable()) ? ["memory", "sqlite", "postgres"] : ["memory", "sqlite"];
}
