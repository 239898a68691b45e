import { authorize } from "./authorization.ts";
import { type Deps, nowIso } from "./context.ts";
import { parseDateTime } from "./date-time.ts";
import { invalid, notFound } from "./errors.ts";
import { generateApiKey, isUuid, keyPrefix, newId } from "./ids.ts";
import type { Principal } from "./principal.ts";
import { requireNameLength, uncarriableCharacter } from "./text.ts";
import { type ApiKey, SCOPES, type Scope } from "./types.ts";
import type { UsageTracker } from "./usage.ts";

/** CONTRACT §5 ApiKeyInfo: what listings show; never the key or its hash. */
export type ApiKeyInfo = Omit<ApiKey, "orgId" | "hash">;

export const apiKeyInfo = (k: ApiKey): ApiKeyInfo => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: [...k.scopes],
  rateLimit: k.rateLimit,
  usageCount: k.usageCount,
  active: k.active,
  expiresAt: k.expiresAt,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
});

export interface NewKey {
  name: string;
  scopes: readonly string[];
  rateLimit?: number;
  expiresAt?: string | null;
}

export const DEFAULT_RATE_LIMIT = 1000;

function validScopes(scopes: readonly string[]): Scope[] {
  if (scopes.length === 0) throw invalid(`scopes must name at least one of ${SCOPES.join(", ")}`);
  for (const s of scopes) {
    if (!(SCOPES as readonly string[]).includes(s)) {
      throw invalid(`scopes may only contain ${SCOPES.join(", ")} (got ${JSON.stringify(s)})`);
    }
  }
  return [...new Set(scopes as Scope[])];
}

function validExpiry(expiresAt: string | null | undefined, now: string): string | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const t = parseDateTime(expiresAt);
  if (t === null)
    throw invalid(
      `expiresAt must be a real date and time such as 2027-01-31T00:00:00Z (RFC 3339; got ${JSON.stringify(expiresAt)})`,
    );
  const iso = new Date(t).toISOString();
  if (iso <= now) throw invalid("expiresAt must be in the future");
  return iso;
}

/** Creates a key in an organization; the full key is in the result and nowhere else, ever. */
export async function createKey(
  deps: Deps,
  orgId: string,
  input: NewKey,
): Promise<ApiKeyInfo & { key: string }> {
  const name = input.name;
  requireNameLength(name);
  const refused = uncarriableCharacter(name);
  if (refused) throw invalid(`name contains ${refused}, which no store can carry`);
  const scopes = validScopes(input.scopes);
  const rateLimit = input.rateLimit ?? DEFAULT_RATE_LIMIT;
  if (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > 10000) {
    throw invalid("rateLimit must be an integer from 1 to 10000");
  }
  const now = nowIso(deps);
  const expiresAt = validExpiry(input.expiresAt, now);
  if (!(await deps.storage.orgs.get(orgId))) throw notFound("Organization not found");
  const secret = generateApiKey();
  const key: ApiKey = {
    id: newId(),
    orgId,
    name,
    hash: deps.hasher.sha256Hex(secret),
    prefix: keyPrefix(secret),
    scopes,
    rateLimit,
    usageCount: 0,
    active: true,
    expiresAt,
    createdAt: now,
    lastUsedAt: null,
  };
  await deps.storage.keys.create(key);
  return { ...apiKeyInfo(key), key: secret };
}

export interface Paging {
  limit: number;
  offset: number;
}

export function paging(
  limit: number | undefined,
  offset: number | undefined,
  max: number,
  fallback: number,
): Paging {
  const l = limit ?? fallback;
  const o = offset ?? 0;
  if (!Number.isInteger(l) || l < 1 || l > max) throw invalid(`limit must be an integer from 1 to ${max}`);
  if (!Number.isInteger(o) || o < 0) throw invalid("offset must be an integer of 0 or more");
  return { limit: l, offset: o };
}

export async function listKeys(
  deps: Deps,
  usage: UsageTracker,
  principal: Principal,
  limit?: number,
  offset?: number,
): Promise<{ data: ApiKeyInfo[]; pagination: Paging & { total: number } }> {
  authorize(principal, "apiKeys.manage");
  const page = paging(limit, offset, 100, 20);
  return usage.settledRead(
    () => deps.storage.keys.listByOrg(principal.orgId, page.limit, page.offset),
    ({ items, total }, live) => ({
      data: items.map((k) => apiKeyInfo(live(k))),
      pagination: { total, ...page },
    }),
  );
}

export async function createKeyForCaller(deps: Deps, principal: Principal, input: NewKey) {
  authorize(principal, "apiKeys.manage");
  return createKey(deps, principal.orgId, input);
}

/** Deactivates a key of the caller's organization; 404 for a key of another organization. */
export async function deactivateKeyForCaller(
  deps: Deps,
  principal: Principal,
  keyId: string,
): Promise<ApiKeyInfo> {
  authorize(principal, "apiKeys.manage");
  const existing = isUuid(keyId) ? await deps.storage.keys.get(keyId.toLowerCase()) : null;
  if (!existing || existing.orgId !== principal.orgId) throw notFound("API key not found");
  const key = await deps.storage.keys.deactivate(existing.id);
  if (!key) throw notFound("API key not found");
  return apiKeyInfo(key);
}
