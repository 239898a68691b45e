import type { TokenStore } from "../../core/ports.ts";
import type { AccessToken } from "../../core/types.ts";

const copy = (t: AccessToken): AccessToken => ({ ...t, scopes: [...t.scopes] });

export function createMemoryTokenStore(): TokenStore {
  const tokens = new Map<string, AccessToken>();
  return {
    async create(token) {
      if (tokens.has(token.hash)) throw new Error("A token with that hash already exists");
      tokens.set(token.hash, copy(token));
    },
    async findByHash(hash) {
      const t = tokens.get(hash);
      return t ? copy(t) : null;
    },
    async deleteExpired(now) {
      let removed = 0;
      for (const [hash, t] of tokens) {
        if (t.expiresAt < now && tokens.delete(hash)) removed++;
      }
      return removed;
    },
  };
}
