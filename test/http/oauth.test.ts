import { describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/index.ts";
import { forEachStore, type SeededKey, type TestServer, useWorld } from "../support/harness.ts";
import { basicAuth, expectRateHeaders, formPost, ISO_DATE } from "../support/http.ts";

const TOKEN = "/api/v1/auth/token";
const HOUR = 3600_000;

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** Asserts an OAuth error answer (CONTRACT §3): the RFC fields plus the Error object's timestamp. */
async function expectOAuthError(res: Response, status: number, error: string) {
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, body }).toEqual({
    status,
    body: { error, error_description: expect.any(String), timestamp: expect.stringMatching(ISO_DATE) },
  });
  expect((body.error_description as string).length).toBeGreaterThan(0);
  expect(res.headers.get("content-type")).toStartWith("application/json");
}

/** Every character percent-encoded: decoding is then required to get the credential back. */
const percentAll = (s: string) =>
  [...new TextEncoder().encode(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");

await forEachStore((kind) => {
  let s: TestServer, key: SeededKey;
  useWorld(kind, (w) => {
    s = w.s;
    key = w.seeded.key;
  });

  const grant = (fields: Record<string, string>, headers?: Record<string, string>) =>
    s.request(TOKEN, formPost({ grant_type: "client_credentials", ...fields }, headers));
  const issue = async (fields: Record<string, string> = {}) => {
    const res = await grant({ client_secret: key.key, ...fields });
    expect(res.status).toBe(200);
    return (await res.json()) as TokenBody;
  };

  describe("issuing", () => {
    test("form body: 200 with the exact token response and no-cache headers", async () => {
      const res = await grant({ client_secret: key.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("pragma")).toBe("no-cache");
      const body = (await res.json()) as TokenBody;
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: "Bearer",
        expires_in: 3600,
        scope: expect.any(String),
      });
      expect(body.scope.split(" ").sort()).toEqual([...SCOPES].sort());
    });

    test("JSON body is accepted too", async () => {
      const res = await s.request(TOKEN, {
        method: "POST",
        json: { grant_type: "client_credentials", client_secret: key.key, client_id: key.id },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as TokenBody).token_type).toBe("Bearer");
    });

    test("HTTP Basic credentials are URL-decoded", async () => {
      const authorization = `Basic ${btoa(`${percentAll(key.id)}:${percentAll(key.key)}`)}`;
      const res = await grant({}, { authorization });
      expect(res.status).toBe(200);
      expect((await grant({}, { authorization: basicAuth(key.id, key.key) })).status).toBe(200);
    });

    test("Basic together with body credentials is invalid_request", async () => {
      const authorization = basicAuth(key.id, key.key);
      await expectOAuthError(
        await grant({ client_secret: key.key }, { authorization }),
        400,
        "invalid_request",
      );
      await expectOAuthError(await grant({ client_id: key.id }, { authorization }), 400, "invalid_request");
    });

    test("grant_type missing is invalid_request, any other is unsupported_grant_type", async () => {
      await expectOAuthError(
        await s.request(TOKEN, formPost({ client_secret: key.key })),
        400,
        "invalid_request",
      );
      for (const grantType of ["password", "authorization_code", "CLIENT_CREDENTIALS"]) {
        const res = await s.request(TOKEN, formPost({ grant_type: grantType, client_secret: key.key }));
        await expectOAuthError(res, 400, "unsupported_grant_type");
      }
    });

    test("a body that is not JSON is invalid_request", async () => {
      const res = await s.request(TOKEN, {
        method: "POST",
        body: "{",
        headers: { "content-type": "application/json" },
      });
      await expectOAuthError(res, 400, "invalid_request");
    });

    test("scope must be a subset of the key's scopes", async () => {
      expect((await issue({ scope: "translations:read" })).scope).toBe("translations:read");
      const two = await issue({ scope: "export:read translations:read" });
      expect(two.scope.split(" ").sort()).toEqual(["export:read", "translations:read"]);
      await expectOAuthError(
        await grant({ client_secret: key.key, scope: "admin bogus" }),
        400,
        "invalid_scope",
      );
      const narrow = await s.seed.key(key.orgId, { scopes: ["export:read"] });
      const res = await grant({ client_secret: narrow.key, scope: "admin" });
      await expectOAuthError(res, 400, "invalid_scope");
    });

    test("client_id must match the key: invalid_client otherwise", async () => {
      expect((await issue({ client_id: key.id })).token_type).toBe("Bearer");
      const other = await s.seed.key(key.orgId);
      await expectOAuthError(
        await grant({ client_secret: key.key, client_id: other.id }),
        401,
        "invalid_client",
      );
      await expectOAuthError(
        await grant({ client_secret: key.key, client_id: "nope" }),
        401,
        "invalid_client",
      );
      await expectOAuthError(
        await grant({}, { authorization: basicAuth(other.id, key.key) }),
        401,
        "invalid_client",
      );
    });

    test("no, unknown, inactive or expired key is invalid_client", async () => {
      await expectOAuthError(await grant({}), 401, "invalid_client");
      await expectOAuthError(await grant({ client_secret: `pl_${"0".repeat(64)}` }), 401, "invalid_client");
      await expectOAuthError(await grant({ client_secret: "garbage" }), 401, "invalid_client");
      const expiring = await s.seed.key(key.orgId, {
        expiresAt: new Date(s.clock.now().getTime() + 60_000).toISOString(),
      });
      s.clock.advance(60_000);
      await expectOAuthError(await grant({ client_secret: expiring.key }), 401, "invalid_client");
      await s.parlance.admin.deactivateKey(key.id);
      await expectOAuthError(await grant({ client_secret: key.key }), 401, "invalid_client");
    });

    test("a token request counts against the key's rate limit", async () => {
      const limited = await s.seed.key(key.orgId, { rateLimit: 2 });
      const first = await grant({ client_secret: limited.key });
      expect(first.status).toBe(200);
      expectRateHeaders(first, { limit: 2, remaining: 1 });
      expect((await s.request("/api/v1/test", { key: limited.key })).status).toBe(200);
      const refused = await grant({ client_secret: limited.key });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expectRateHeaders(refused, { limit: 2, remaining: 0 });
      const body = (await refused.json()) as Record<string, unknown>;
      expect(body).toEqual({
        error: expect.any(String),
        error_description: expect.any(String),
        timestamp: expect.stringMatching(ISO_DATE),
      });
    });
  });

  describe("using the token", () => {
    test("is opaque, not of the API key format, and authenticates as the key", async () => {
      const token = (await issue()).access_token;
      expect(token).not.toMatch(/^pl_[0-9a-f]{64}$/);
      expect(token.length).toBeGreaterThanOrEqual(32);
      expect(token).not.toContain(key.key.slice(3));
      const res = await s.request("/api/v1/test", { key: token });
      expect(res.status).toBe(200);
      const info = (await res.json()) as { data: { name: string } };
      expect(info.data.name).toBe(key.name);
      expect((await issue()).access_token).not.toBe(token);
    });

    test("carries the granted scopes only", async () => {
      const { access_token } = await issue({ scope: "translations:read" });
      const info = (await (await s.request("/api/v1/test", { key: access_token })).json()) as {
        data: { scopes: string[] };
      };
      expect(info.data.scopes).toEqual(["translations:read"]);
      expect((await s.request("/api/v1/projects", { key: access_token })).status).toBe(200);
      expect((await s.request("/api/v1/api-keys", { key: access_token })).status).toBe(403);
      const project = (await s.seed.project(key.orgId)).id;
      expect(
        (await s.request(`/api/v1/pull?project_id=${project}&language=fr`, { key: access_token })).status,
      ).toBe(403);
    });

    test("stops working after expires_in", async () => {
      const { access_token, expires_in } = await issue();
      s.clock.advance(expires_in * 1000 - 1);
      expect((await s.request("/api/v1/test", { key: access_token })).status).toBe(200);
      s.clock.advance(1);
      const res = await s.request("/api/v1/test", { key: access_token });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="parlance", error="invalid_token"');
    });

    test("stops working when the key is deactivated", async () => {
      const { access_token } = await issue();
      await s.parlance.admin.deactivateKey(key.id);
      expect((await s.request("/api/v1/test", { key: access_token })).status).toBe(401);
    });

    test("stops working when the key expires", async () => {
      const expiring = await s.seed.key(key.orgId, {
        expiresAt: new Date(s.clock.now().getTime() + HOUR / 2).toISOString(),
      });
      const res = await grant({ client_secret: expiring.key });
      const { access_token } = (await res.json()) as TokenBody;
      expect((await s.request("/api/v1/test", { key: access_token })).status).toBe(200);
      s.clock.advance(HOUR / 2);
      expect((await s.request("/api/v1/test", { key: access_token })).status).toBe(401);
    });

    test("counts against the key's rate limit and usage", async () => {
      const limited = await s.seed.key(key.orgId, { rateLimit: 4 });
      const { access_token } = (await (await grant({ client_secret: limited.key })).json()) as TokenBody;
      const res = await s.request("/api/v1/test", { key: access_token });
      expectRateHeaders(res, { limit: 4, remaining: 2 });
      const info = (await res.json()) as { data: { usageCount: number; rateLimit: number } };
      expect(info.data).toMatchObject({ usageCount: 2, rateLimit: 4 });
      expect((await s.request("/api/v1/test", { key: limited.key })).status).toBe(200);
      expect((await s.request("/api/v1/test", { key: access_token })).status).toBe(200);
      const refused = await s.request("/api/v1/test", { key: access_token });
      expect(refused.status).toBe(429);
      expect((await s.request("/api/v1/test", { key: limited.key })).status).toBe(429);
    });
  });
});
