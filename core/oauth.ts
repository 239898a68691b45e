import { addressBucket, keyBucket, RATE_WINDOW_MS } from "./admission.ts";
import { keyUsable } from "./authenticate.ts";
import type { Deps, Settings } from "./context.ts";
import { generateAccessToken, isApiKeyFormat, timingSafeEqual } from "./ids.ts";
import type { RateDecision } from "./ports.ts";
import type { ApiKey, Scope } from "./types.ts";
import type { UsageTracker } from "./usage.ts";

/** A client-credentials request (RFC 6749 §4.4), as the transport received it. */
export interface TokenRequest {
  grantType?: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  /** Credentials from HTTP Basic, already URL-decoded; "malformed" when the header was unreadable. */
  basic?: { clientId: string; clientSecret: string } | "malformed";
}

export type OAuthErrorCode =
  | "invalid_request"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_client";

/** What each OAuth refusal is in Parlance's own codes (RFC 6749 §5.2: 400, and 401 for the client). */
export type OAuthFailure = "invalid_input" | "unauthenticated" | "rate_limited";
const FAILURE: Record<OAuthErrorCode, OAuthFailure> = {
  invalid_request: "invalid_input",
  unsupported_grant_type: "invalid_input",
  invalid_scope: "invalid_input",
  invalid_client: "unauthenticated",
};

export type TokenOutcome =
  | {
      ok: true;
      rate: RateDecision;
      body: { access_token: string; token_type: "Bearer"; expires_in: number; scope: string };
    }
  | {
      ok: false;
      rate: RateDecision;
      /** The Parlance error code of the refusal; the server's one table gives its HTTP status. */
      code: OAuthFailure;
      error: OAuthErrorCode | "rate_limited";
      description: string;
    };

/**
 * Issues an opaque access token for an API key (CONTRACT §3). The request counts against the key's
 * rate limit once the client is known, against the caller's address otherwise.
 */
export async function requestToken(
  deps: Deps,
  settings: Settings,
  usage: UsageTracker,
  req: TokenRequest,
  address: string,
): Promise<TokenOutcome> {
  const nowMs = deps.clock.now().getTime();
  const now = new Date(nowMs).toISOString();
  const anon = () =>
    deps.rateLimiter.consume(addressBucket(address), settings.anonRateLimit, RATE_WINDOW_MS, nowMs);
  const refuse = async (error: OAuthErrorCode, description: string): Promise<TokenOutcome> => {
    const rate = await anon();
    if (!rate.allowed)
      return {
        ok: false,
        rate,
        code: "rate_limited",
        error: "rate_limited",
        description: "Rate limit exceeded",
      };
    return { ok: false, rate, code: FAILURE[error], error, description };
  };

  if (req.basic === "malformed") return refuse("invalid_request", "Malformed HTTP Basic credentials");
  if (req.basic && (req.clientSecret !== undefined || req.clientId !== undefined)) {
    return refuse(
      "invalid_request",
      "Send client credentials either with HTTP Basic or in the body, not both",
    );
  }
  if (!req.grantType) return refuse("invalid_request", "grant_type is required");
  if (req.grantType !== "client_credentials") {
    return refuse("unsupported_grant_type", "Only grant_type=client_credentials is supported");
  }
  const secret = req.basic ? req.basic.clientSecret : req.clientSecret;
  const clientId = req.basic ? req.basic.clientId : req.clientId;
  if (!secret) return refuse("invalid_client", "Client authentication failed: no client_secret");
  const key = await findUsableKey(deps, secret, nowMs);
  if (!key || (clientId !== undefined && clientId !== "" && clientId !== key.id)) {
    return refuse("invalid_client", "Client authentication failed");
  }
  const rate = await deps.rateLimiter.consume(keyBucket(key.id), key.rateLimit, RATE_WINDOW_MS, nowMs);
  if (!rate.allowed)
    return {
      ok: false,
      rate,
      code: "rate_limited",
      error: "rate_limited",
      description: "Rate limit exceeded",
    };
  usage.record(key.id, nowMs);

  let scopes: Scope[] = key.scopes;
  if (req.scope !== undefined && req.scope.trim() !== "") {
    const asked = req.scope.trim().split(/ +/);
    const unknown = asked.filter((s) => !(key.scopes as string[]).includes(s));
    if (unknown.length > 0) {
      return {
        ok: false,
        rate,
        code: FAILURE.invalid_scope,
        error: "invalid_scope",
        description: `Not granted to this key: ${unknown.join(" ")}`,
      };
    }
    scopes = [...new Set(asked as Scope[])];
  }
  const token = generateAccessToken();
  // The key's own expiry or deactivation ends the token earlier: authenticate() checks the key too.
  const expiresAt = new Date(nowMs + settings.tokenTtlSeconds * 1000).toISOString();
  await deps.storage.tokens.create({
    hash: deps.hasher.sha256Hex(token),
    keyId: key.id,
    scopes,
    expiresAt,
    createdAt: now,
  });
  return {
    ok: true,
    rate,
    body: {
      access_token: token,
      token_type: "Bearer",
      expires_in: settings.tokenTtlSeconds,
      scope: scopes.join(" "),
    },
  };
}

async function findUsableKey(deps: Deps, secret: string, nowMs: number): Promise<ApiKey | null> {
  if (!isApiKeyFormat(secret)) return null;
  const hash = deps.hasher.sha256Hex(secret);
  const key = await deps.storage.keys.findByHash(hash);
  return key && timingSafeEqual(key.hash, hash) && keyUsable(key, nowMs) ? key : null;
}
