import type { OneTimeToken } from "../../core/people/types.ts";
import type { OneTimeTokenStore } from "../../core/ports.ts";

const copy = (t: OneTimeToken): OneTimeToken => ({ ...t, languages: t.languages ? [...t.languages] : null });

export function createMemoryOneTimeTokenStore(): OneTimeTokenStore {
  const tokens = new Map<string, OneTimeToken>();
  const byHash = (hash: string) => {
    for (const t of tokens.values()) if (t.tokenHash === hash) return t;
    return null;
  };
  return {
    async create(token) {
      if (byHash(token.tokenHash)) throw new Error("A token with that hash already exists");
      tokens.set(token.id, copy(token));
    },
    async findByHash(tokenHash) {
      const t = byHash(tokenHash);
      return t ? copy(t) : null;
    },
    async get(id) {
      const t = tokens.get(id);
      return t ? copy(t) : null;
    },
    async consume(tokenHash, kind, now) {
      const t = byHash(tokenHash);
      if (!t || t.kind !== kind || t.usedAt !== null || t.expiresAt <= now) return null;
      tokens.set(t.id, { ...t, usedAt: now });
      return copy(t);
    },
    async listInvitations(orgId, now) {
      return [...tokens.values()]
        .filter((t) => t.kind === "invitation" && t.orgId === orgId && t.usedAt === null && t.expiresAt > now)
        .sort((a, b) =>
          a.createdAt > b.createdAt ? -1 : a.createdAt < b.createdAt ? 1 : a.id < b.id ? 1 : -1,
        )
        .map(copy);
    },
    async revoke(id, now) {
      const t = tokens.get(id);
      if (!t || t.usedAt !== null) return false;
      tokens.set(id, { ...t, usedAt: now });
      return true;
    },
  };
}
