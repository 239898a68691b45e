import type { TokenStore } from "../../core/ports.ts";
import type { AccessToken, Scope } from "../../core/types.ts";
import type { Statements } from "./statements.ts";

interface TokenRow {
  hash: string;
  key_id: string;
  scopes: string;
  expires_at: string;
  created_at: string;
}

const toToken = (r: TokenRow): AccessToken => ({
  hash: r.hash,
  keyId: r.key_id,
  scopes: JSON.parse(r.scopes) as Scope[],
  expiresAt: r.expires_at,
  createdAt: r.created_at,
});

export function createSqliteTokenStore(s: Statements): TokenStore {
  const insert = s.prepare<never, [string, string, string, string, string]>(
    "INSERT INTO tokens (hash, key_id, scopes, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const select = s.prepare<TokenRow, [string]>("SELECT * FROM tokens WHERE hash = ?");
  const deleteBefore = s.prepare<never, [string]>("DELETE FROM tokens WHERE expires_at < ?");
  return {
    async create(t) {
      insert.run(t.hash, t.keyId, JSON.stringify(t.scopes), t.expiresAt, t.createdAt);
    },
    async findByHash(hash) {
      const row = select.get(hash);
      return row ? toToken(row) : null;
    },
    async deleteExpired(now) {
      return deleteBefore.run(now).changes;
    },
  };
}
