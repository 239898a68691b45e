import { compareCodePoints } from "../../core/code-point.ts";
import { ParlanceError } from "../../core/errors.ts";
import type { KeyStore } from "../../core/ports.ts";
import type { ApiKey } from "../../core/types.ts";

const copy = (k: ApiKey): ApiKey => ({ ...k, scopes: [...k.scopes] });

const newestFirst = (a: ApiKey, b: ApiKey) =>
  compareCodePoints(b.createdAt, a.createdAt) || compareCodePoints(b.id, a.id);

export function createMemoryKeyStore(): KeyStore {
  const keys = new Map<string, ApiKey>();
  const byHash = new Map<string, ApiKey>();
  return {
    async create(key) {
      // Mirrors the SQL adapters' unique constraints (id, hash, and name within the organization).
      const taken =
        keys.has(key.id) ||
        byHash.has(key.hash) ||
        [...keys.values()].some((k) => k.orgId === key.orgId && k.name === key.name);
      if (taken) throw new ParlanceError("conflict", `An API key named "${key.name}" already exists`);
      const stored = copy(key);
      keys.set(key.id, stored);
      byHash.set(key.hash, stored);
    },
    async findByHash(hash) {
      const k = byHash.get(hash);
      return k ? copy(k) : null;
    },
    findByHashNow(hash) {
      const k = byHash.get(hash);
      return k ? copy(k) : null;
    },
    async get(id) {
      const k = keys.get(id);
      return k ? copy(k) : null;
    },
    async listByOrg(orgId, limit, offset) {
      const all = [...keys.values()].filter((k) => k.orgId === orgId).sort(newestFirst);
      return { items: all.slice(offset, offset + limit).map(copy), total: all.length };
    },
    async count() {
      return keys.size;
    },
    async deactivate(id) {
      const k = keys.get(id);
      if (!k) return null;
      k.active = false;
      return copy(k);
    },
    async addUsage(increments) {
      for (const { keyId, count, lastUsedAt } of increments) {
        const k = keys.get(keyId);
        if (!k) continue;
        k.usageCount += count;
        if (k.lastUsedAt === null || k.lastUsedAt < lastUsedAt) k.lastUsedAt = lastUsedAt;
      }
    },
  };
}
