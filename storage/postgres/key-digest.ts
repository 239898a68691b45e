import { createHash } from "node:crypto";

/**
 * `parlance_key_digest(key)` (SHA-256 of the key's UTF-8, migration 3) of each key, as the `\x`
 * hex text Postgres casts to bytea: a list of keys is looked up by digest as one constant array
 * (`= ANY ($n::text[]::bytea[])`), which the planner hashes when it filters with it and can probe
 * translations_key with, whatever it knows of the table. A list computed in SQL
 * (`ARRAY(SELECT parlance_key_digest(k) FROM unnest(…))`) is a run-time value: before the table's
 * first ANALYZE the planner filtered a language's rows with it, each compared with every listed
 * key (docs/decisions.md, "Joins by key before the first ANALYZE").
 */
export const keyDigests = (keys: readonly string[]): string[] =>
  keys.map((key) => `\\x${createHash("sha256").update(key, "utf8").digest("hex")}`);
