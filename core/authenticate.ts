import type { Deps } from "./context.ts";
import { ParlanceError } from "./errors.ts";
import { isApiKeyFormat, timingSafeEqual } from "./ids.ts";
import { type KeyPrincipal, keyPrincipal } from "./principal.ts";
import type { ApiKey } from "./types.ts";

const unauthenticated = (message: string) => new ParlanceError("unauthenticated", message);

/** The token of an `Authorization: Bearer <token>` header (scheme word case-insensitive), or null. */
export function bearerToken(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? (match[1] as string) : null;
}

/** Whether a key may still be used at `nowMs` (epoch milliseconds). */
export function keyUsable(key: ApiKey, nowMs: number): boolean {
  return key.active && (key.expiresAt === null || Date.parse(key.expiresAt) > nowMs);
}

/** The principal of the key found by `hash`; 401 when there is none or it may not be used at `now`. */
function keyHolder(key: ApiKey | null, hash: string, now: number): KeyPrincipal {
  // The lookup is by hash; the comparison guards against an adapter that matched loosely.
  if (!key || !timingSafeEqual(key.hash, hash))
    throw unauthenticated("Invalid API key: no key with this value exists (check it for a typo)");
  if (!key.active) throw unauthenticated("This API key is inactive");
  if (!keyUsable(key, now)) throw unauthenticated("This API key has expired");
  return keyPrincipal(key, key.scopes);
}

/**
 * The key of the usual header, `Bearer ` and an API key, without the pattern's match: the token
 * `bearerToken` would read from it. Anything else is left to `headerToken`.
 */
function plainBearerKey(header: string | null | undefined): string | undefined {
  if (!header?.startsWith("Bearer ")) return undefined;
  const token = header.slice(7);
  return isApiKeyFormat(token) ? token : undefined;
}

/** The token of a well-formed header; 401 for a missing or malformed one. */
function headerToken(header: string | null | undefined): string {
  if (!header) throw unauthenticated("Missing Authorization header; send Authorization: Bearer <API key>");
  const token = bearerToken(header);
  if (!token) throw unauthenticated("Malformed Authorization header; expected Authorization: Bearer <token>");
  return token;
}

/**
 * `authenticate` without waiting: the same principal or the same 401, or `undefined` when the
 * answer needs the store to wait (an access token, a key the store does not hold in memory), and
 * the caller then asks `authenticate`.
 */
export function authenticateNow(
  deps: Deps,
  header: string | null | undefined,
  now = deps.clock.now().getTime(),
): KeyPrincipal | undefined {
  let token = plainBearerKey(header);
  if (token === undefined) {
    token = headerToken(header);
    if (!isApiKeyFormat(token)) return undefined;
  }
  if (!deps.storage.keys.findByHashNow) return undefined;
  const hash = deps.hasher.sha256Hex(token);
  const key = deps.storage.keys.findByHashNow(hash);
  return key === undefined ? undefined : keyHolder(key, hash, now);
}

/** Resolves the Authorization header to a principal; 401 for anything missing or unusable. */
export async function authenticate(deps: Deps, header: string | null | undefined): Promise<KeyPrincipal> {
  const token = headerToken(header);
  const now = deps.clock.now().getTime();
  const hash = deps.hasher.sha256Hex(token);
  if (isApiKeyFormat(token)) return keyHolder(await deps.storage.keys.findByHash(hash), hash, now);
  const access = await deps.storage.tokens.findByHash(hash);
  if (!access || !timingSafeEqual(access.hash, hash)) {
    // Most often a mistyped or truncated API key: say what a key looks like (issue 14).
    throw unauthenticated(
      token.startsWith("pl_")
        ? "Invalid API key: an API key is pl_ followed by 64 lowercase hexadecimal characters"
        : "Invalid API key or access token: send an API key (pl_…) or a current token from POST /api/v1/auth/token",
    );
  }
  if (Date.parse(access.expiresAt) <= now) throw unauthenticated("This access token has expired");
  const key = await deps.storage.keys.get(access.keyId);
  if (!key || !keyUsable(key, now))
    throw unauthenticated("The API key behind this access token is no longer valid");
  return keyPrincipal(key, access.scopes);
}
