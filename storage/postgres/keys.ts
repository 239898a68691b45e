import type { Sql } from "postgres";
import { conflict } from "../../core/errors.ts";
import type { KeyStore } from "../../core/ports.ts";
import type { ApiKey, Scope } from "../../core/types.ts";
import { type DbRow, iso, isoOrNull, isUniqueViolation, num, str, strings } from "./convert.ts";
import type { RowCache } from "./row-cache.ts";

const toKey = (r: DbRow): ApiKey => ({
  id: str(r.id),
  orgId: str(r.org_id),
  name: str(r.name),
  hash: str(r.hash),
  prefix: str(r.prefix),
  scopes: strings(r.scopes) as Scope[],
  rateLimit: num(r.rate_limit),
  usageCount: num(r.usage_count),
  active: r.active === true,
  expiresAt: isoOrNull(r.expires_at),
  createdAt: iso(r.created_at),
  lastUsedAt: isoOrNull(r.last_used_at),
});

/** Callers get their own copy: the cached row stays as read. */
const copy = (k: ApiKey | null): ApiKey | null => (k ? { ...k, scopes: [...k.scopes] } : null);
const idOf = (k: ApiKey) => k.id;

export function createKeyStore(sql: Sql, cache: RowCache): KeyStore {
  return {
    async create(k) {
      try {
        await sql`
          INSERT INTO api_keys (id, org_id, name, hash, prefix, scopes, rate_limit, usage_count,
                                active, expires_at, created_at, last_used_at)
          VALUES (${k.id}, ${k.orgId}, ${k.name}, ${k.hash}, ${k.prefix}, ${sql.array(k.scopes)}::text[],
                  ${k.rateLimit}, ${k.usageCount}, ${k.active}, ${k.expiresAt}, ${k.createdAt},
                  ${k.lastUsedAt})`;
      } catch (error) {
        if (isUniqueViolation(error, "api_keys_org_name_unique")) {
          throw conflict(`An API key named "${k.name}" already exists in this organization`);
        }
        throw error;
      }
    },
    async findByHash(hash) {
      const load = async () => {
        const [row] = await sql`SELECT * FROM api_keys WHERE hash = ${hash}`;
        return row ? toKey(row) : null;
      };
      return copy(await cache.read("api_keys", `hash:${hash}`, load, idOf));
    },
    findByHashNow(hash) {
      // Only a cached row answers now (absent rows are never cached): anything else is a round trip.
      const key = cache.peek<ApiKey>("api_keys", `hash:${hash}`);
      return key && copy(key);
    },
    async get(id) {
      const load = async () => {
        const [row] = await sql`SELECT * FROM api_keys WHERE id = ${id}`;
        return row ? toKey(row) : null;
      };
      return copy(await cache.read("api_keys", `id:${id}`, load, idOf));
    },
    async listByOrg(orgId, limit, offset) {
      const [rows, [total]] = await Promise.all([
        sql`SELECT * FROM api_keys WHERE org_id = ${orgId}
            ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
        sql`SELECT count(*) AS n FROM api_keys WHERE org_id = ${orgId}`,
      ]);
      return { items: rows.map(toKey), total: num(total?.n ?? 0) };
    },
    async count() {
      const [row] = await sql`SELECT count(*) AS n FROM api_keys`;
      return num(row?.n ?? 0);
    },
    async deactivate(id) {
      const [row] = await sql`UPDATE api_keys SET active = false WHERE id = ${id} RETURNING *`;
      cache.drop("api_keys", id);
      return row ? toKey(row) : null;
    },
    async addUsage(increments) {
      if (increments.length === 0) return;
      const ids = increments.map((i) => i.keyId);
      await sql.begin(async (tx) => {
        // Several instances flush usage at once: locking in id order first keeps their
        // multi-row updates from deadlocking on one another.
        await tx`SELECT 1 FROM api_keys WHERE id = ANY (${tx.array(ids)}::text[]) ORDER BY id FOR UPDATE`;
        // Grouping first adds every increment of a key named twice in the batch.
        await tx`
          UPDATE api_keys AS k
          SET usage_count = k.usage_count + u.count,
              last_used_at = greatest(k.last_used_at, u.last_used_at)
          FROM (
            SELECT key_id, sum(count) AS count, max(last_used_at) AS last_used_at
            FROM unnest(${tx.array(ids)}::text[],
                        ${tx.array(increments.map((i) => i.count))}::bigint[],
                        ${tx.array(increments.map((i) => i.lastUsedAt))}::timestamptz[])
                 AS x(key_id, count, last_used_at)
            GROUP BY key_id
          ) AS u
          WHERE k.id = u.key_id`;
      });
      for (const id of ids) cache.drop("api_keys", id);
    },
  };
}
