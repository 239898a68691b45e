import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import { MAX_OFFSET } from "../query-integer.ts";
import { ApiKeyInfo, CreatedApiKey, IsoDate, Pagination, ScopeSchema } from "../schemas.ts";
import { requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { data, describe, errors } from "./schemas.ts";

/** The organization's API keys, by the same core use cases as /api/v1/api-keys (apiKeys.manage). */
export const apiKeyRoutes = (kit: WorkspaceKit) =>
  new Elysia({ name: "workspace-api-keys" })
    .get(
      `${WORKSPACE_PREFIX}/orgs/:orgId/api-keys`,
      async ({ request, params, query }) => {
        const principal = await kit.memberOf(request, params.orgId);
        return kit.parlance.listKeys(principal, query.limit, query.offset);
      },
      {
        ...requireUser(kit, {
          integers: { limit: { min: 1, max: 100 }, offset: { min: 0, max: MAX_OFFSET } },
        }),
        params: t.Object({ orgId: t.String() }),
        query: t.Object({
          limit: t.Optional(Type.Integer({ minimum: 1, maximum: 100, description: "Default: 20." })),
          offset: t.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: "Default: 0." })),
        }),
        response: {
          200: t.Object(
            { data: t.Array(ApiKeyInfo), pagination: Pagination },
            { description: "One page of keys, newest first" },
          ),
          ...errors(400, 401, 403, 404),
        },
        detail: describe({ id: "listOrgApiKeys", summary: "The organization's API keys", tag: "API keys" }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/orgs/:orgId/api-keys`,
      async ({ request, params, body, set }) => {
        const principal = await kit.memberOf(request, params.orgId);
        const created = await kit.parlance.createKey(principal, body);
        set.status = 201;
        return { data: created };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params: t.Object({ orgId: t.String() }),
        body: t.Object({
          name: t.String({ description: "1 to 100 characters, unique in the organization" }),
          scopes: t.Array(ScopeSchema, { minItems: 1 }),
          rateLimit: t.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: "Default 1000" })),
          expiresAt: t.Optional(t.Union([IsoDate, t.Null()])),
        }),
        response: { 201: data(CreatedApiKey, "The new key, shown once"), ...errors(400, 401, 403, 404, 409) },
        detail: describe({ id: "createOrgApiKey", summary: "Create an API key", tag: "API keys" }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/orgs/:orgId/api-keys/:keyId/deactivate`,
      async ({ request, params }) => {
        const principal = await kit.memberOf(request, params.orgId);
        return { data: await kit.parlance.deactivateKey(principal, params.keyId) };
      },
      {
        ...requireUser(kit),
        params: t.Object({ orgId: t.String(), keyId: t.String() }),
        response: { 200: data(ApiKeyInfo, "The key, now inactive"), ...errors(401, 403, 404) },
        detail: describe({
          id: "deactivateOrgApiKey",
          summary: "Deactivate an API key",
          description: "From the next request on, the key answers 401.",
          tag: "API keys",
        }),
      },
    );
