import { Elysia, t } from "elysia";
import { invalid } from "../../core/errors.ts";
import { type Parlance, retryAfterSeconds, type TokenRequest } from "../../core/index.ts";
import { FormBody, UnparsedJson, UnsupportedBody, unsupportedBody } from "../body.ts";
import { clientAddress } from "../client-address.ts";
import { HTTP_STATUS } from "../http-errors.ts";
import { operation } from "../openapi/operation.ts";
import { rateHeaders } from "../rate-headers.ts";
import { ErrorObject, OAuthError, TokenRequest as TokenRequestSchema, TokenResponse } from "../schemas.ts";

export const TOKEN_PATH = "/api/v1/auth/token";

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
function basicCredentials(header: string | null): TokenRequest["basic"] {
  if (!header || !/^basic\s/i.test(header)) return undefined;
  try {
    const decoded = atob(header.replace(/^basic\s+/i, "").trim());
    const colon = decoded.indexOf(":");
    if (colon < 0) return "malformed";
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
    return { clientId: unform(decoded.slice(0, colon)), clientSecret: unform(decoded.slice(colon + 1)) };
  } catch {
    return "malformed";
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

const PARAMETERS = ["grant_type", "client_id", "client_secret", "scope"] as const;

/**
 * The grant's parameters from a form or JSON body. RFC 6749 §3.2: a parameter sent twice is
 * `invalid_request` (JSON bodies cannot repeat a member: the reader refuses it).
 */
function grantParameters(body: unknown): Record<string, unknown> {
  if (body instanceof FormBody) {
    const seen = new Set<string>();
    for (const name of body.params.keys()) {
      if (seen.has(name)) throw invalid(`Parameter ${name} appears more than once (RFC 6749 §3.2)`);
      seen.add(name);
    }
    const out: Record<string, unknown> = Object.create(null);
    for (const name of PARAMETERS) {
      const value = body.params.get(name);
      if (value !== null) out[name] = value;
    }
    return out;
  }
  if (body instanceof UnsupportedBody) throw unsupportedBody(body, "application/x-www-form-urlencoded");
  const parsed = body instanceof UnparsedJson ? body.parse() : body;
  return (
    parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : Object.create(null)
  ) as Record<string, unknown>;
}

/** OAuth 2.0 client credentials: the API key is the client secret (CONTRACT §3). */
export const authTokenRoutes = (parlance: Parlance, options: { trustProxy: number }) =>
  new Elysia({ name: "auth-token" }).post(
    TOKEN_PATH,
    async ({ request, body, server }) => {
      const form = grantParameters(body);
      const req: TokenRequest = {
        grantType: str(form.grant_type),
        clientId: str(form.client_id),
        clientSecret: str(form.client_secret),
        scope: str(form.scope),
        basic: basicCredentials(request.headers.get("authorization")),
      };
      const outcome = await parlance.requestToken(req, clientAddress(request, server, options.trustProxy));
      const headers: Record<string, string> = {
        ...rateHeaders(outcome.rate),
        "cache-control": "no-store",
        pragma: "no-cache",
        "x-content-type-options": "nosniff",
        "content-type": "application/json; charset=utf-8",
      };
      if (outcome.ok) return new Response(JSON.stringify(outcome.body), { status: 200, headers });
      const status = HTTP_STATUS[outcome.code];
      if (status === 401) {
        // RFC 6749 §5.2: the challenge names the scheme the client tried.
        headers["www-authenticate"] = req.basic ? 'Basic realm="parlance"' : 'Bearer realm="parlance"';
      }
      if (status === 429) {
        headers["retry-after"] = String(retryAfterSeconds(outcome.rate, parlance.now().getTime()));
      }
      const payload = {
        error: outcome.error,
        error_description: outcome.description,
        timestamp: parlance.now().toISOString(),
      };
      return new Response(JSON.stringify(payload), { status, headers });
    },
    {
      parse: ["urlencoded", "json"],
      body: t.Unknown({
        description:
          "application/x-www-form-urlencoded (or JSON): grant_type=client_credentials, client_secret=<API key>, " +
          "optional client_id (the key's id) and scope (space-separated subset of the key's scopes). " +
          "HTTP Basic client_id:client_secret is accepted instead of body credentials.",
      }),
      response: {
        200: TokenResponse,
        400: OAuthError,
        401: OAuthError,
        // Refused before the client is known (its address's window is spent): the Error object.
        429: t.Union([OAuthError, ErrorObject]),
      },
      detail: operation({
        id: "requestToken",
        summary: "OAuth 2.0 client credentials token",
        description:
          "Exchanges an API key for a short-lived opaque access token (3600 s) with the key's scopes " +
          "or fewer. The key goes as client_secret in the body, or as the password of HTTP Basic " +
          "(client_id:client_secret, each form-urlencoded), not both.",
        tag: "Account",
        scope: "public",
        hasBody: true,
        requestBody: {
          schema: TokenRequestSchema,
          mediaTypes: ["application/x-www-form-urlencoded", "application/json"],
          description: "The grant, as a form (RFC 6749) or as JSON",
        },
        headers: {
          200: { "Cache-Control": true, Pragma: true },
          400: { "Cache-Control": true, Pragma: true },
          401: { "Cache-Control": true, Pragma: true },
        },
      }),
    },
  );
