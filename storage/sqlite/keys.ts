import type { Database } from "bun:sqlite";
import { ParlanceError } from "../../core/errors.ts";
import type { KeyStore, UsageIncrement } from "../../core/ports.ts";
import type { ApiKey, Scope } from "../../core/types.ts";
import type { ReadCache } from "./read-cache.ts";
import { bool, int, isUniqueViolation, type Statements } from "./statements.ts";
import { readNow } from "./unavailable.ts";

interface KeyRow {
  id: string;
  org_id: string;
  name: string;
  hash: string;
  prefix: string;
  scopes: string;
  rate_limit: number | bigint;
  usage_count: number | bigint;
  active: number | bigint;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

const toKey = (r: KeyRow): ApiKey => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  hash: r.hash,
  prefix: r.prefix,
  scopes: JSON.parse(r.scopes) as Scope[],
  rateLimit: int(r.rate_limit),
  usageCount: int(r.usage_count),
  active: bool(r.active),
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

type InsertParams = [
  string,
  string,
  string,
  string,
  string,
  string,
  number,
  number,
  number,
  string | null,
  string,
  string | null,
];

/** Callers get their own copy: the cached row stays as stored. */
const copy = (k: ApiKey): ApiKey => ({ ...k, scopes: [...k.scopes] });

export function createSqliteKeyStore(db: Database, s: Statements, cache: ReadCache): KeyStore {
  const byHash = cache.space<ApiKey>();
  const byId = cache.space<ApiKey>();
  const insert = s.prepare<never, InsertParams>(
    `INSERT INTO api_keys (id, org_id, name, hash, prefix, scopes, rate_limit, usage_count, active,
       expires_at, created_at, last_used_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const selectByHash = s.prepare<KeyRow, [string]>("SELECT * FROM api_keys WHERE hash = ?");
  const select = s.prepare<KeyRow, [string]>("SELECT * FROM api_keys WHERE id = ?");
  const selectPage = s.prepare<KeyRow, [string, number, number]>(
    "SELECT * FROM api_keys WHERE org_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
  );
  const countOrg = s.prepare<{ n: number | bigint }, [string]>(
    "SELECT COUNT(*) AS n FROM api_keys WHERE org_id = ?",
  );
  const countAll = s.prepare<{ n: number | bigint }, []>("SELECT COUNT(*) AS n FROM api_keys");
  const markInactive = s.prepare<KeyRow, [string]>("UPDATE api_keys SET active = 0 WHERE id = ? RETURNING *");
  // ISO-8601 strings in UTC compare chronologically as text.
  const addOne = s.prepare<never, [number, string, string, string]>(
    `UPDATE api_keys SET usage_count = usage_count + ?,
       last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < ? THEN ? ELSE last_used_at END
     WHERE id = ?`,
  );
  const addAll = db.transaction((increments: UsageIncrement[]) => {
    for (const i of increments) addOne.run(i.count, i.lastUsedAt, i.lastUsedAt, i.keyId);
  });
  const readPage = db.transaction((orgId: string, limit: number, offset: number) => ({
    items: selectPage.all(orgId, limit, offset).map(toKey),
    total: int(countOrg.get(orgId)?.n ?? 0),
  }));

  const loadByHash = (hash: string): ApiKey | null => {
    const row = selectByHash.get(hash);
    return row ? toKey(row) : null;
  };
  const findByHash = (hash: string): ApiKey | null => {
    const key = byHash.read(hash, loadByHash);
    return key && copy(key);
  };

  return {
    async create(k) {
      cache.clear();
      try {
        insert.run(
          k.id,
          k.orgId,
          k.name,
          k.hash,
          k.prefix,
          JSON.stringify(k.scopes),
          k.rateLimit,
          k.usageCount,
          k.active ? 1 : 0,
          k.expiresAt,
          k.createdAt,
          k.lastUsedAt,
        );
      } catch (e) {
        if (isUniqueViolation(e))
          throw new ParlanceError("conflict", `An API key named "${k.name}" already exists`);
        throw e;
      }
    },
    async findByHash(hash) {
      return findByHash(hash);
    },
    findByHashNow: (hash) => readNow(findByHash, hash),
    async get(id) {
      const key = byId.read(id, () => {
        const row = select.get(id);
        return row ? toKey(row) : null;
      });
      return key && copy(key);
    },
    async listByOrg(orgId, limit, offset) {
      return readPage(orgId, limit, offset);
    },
    async count() {
      return int(countAll.get()?.n ?? 0);
    },
    async deactivate(id) {
      cache.clear();
      const row = markInactive.get(id);
      return row ? toKey(row) : null;
    },
    async addUsage(increments) {
      if (increments.length === 0) return;
      cache.clear();
      addAll.immediate(increments);
    },
  };
}
