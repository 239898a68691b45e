import type { Sql } from "postgres";
import type { TokenStore } from "../../core/ports.ts";
import type { AccessToken, Scope } from "../../core/types.ts";
import { type DbRow, iso, str, strings } from "./convert.ts";
import type { RowCache } from "./row-cache.ts";

const toToken = (r: DbRow): AccessToken => ({
  hash: str(r.hash),
  keyId: str(r.key_id),
  scopes: strings(r.scopes) as Scope[],
  expiresAt: iso(r.expires_at),
  createdAt: iso(r.created_at),
});

const copy = (t: AccessToken | null): AccessToken | null => (t ? { ...t, scopes: [...t.scopes] } : null);

export function createTokenStore(sql: Sql, cache: RowCache): TokenStore {
  return {
    async create(t) {
      await sql`
        INSERT INTO access_tokens (hash, key_id, scopes, expires_at, created_at)
        VALUES (${t.hash}, ${t.keyId}, ${sql.array(t.scopes)}::text[], ${t.expiresAt}, ${t.createdAt})`;
    },
    async findByHash(hash) {
      const load = async () => {
        const [row] = await sql`SELECT * FROM access_tokens WHERE hash = ${hash}`;
        return row ? toToken(row) : null;
      };
      return copy(await cache.read("access_tokens", hash, load, (t) => t.hash));
    },
    async deleteExpired(now) {
      const result = await sql`DELETE FROM access_tokens WHERE expires_at < ${now}`;
      cache.dropAll("access_tokens");
      return result.count;
    },
  };
}
