import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
import { principalOf } from "../request-state.ts";
import { ApiKeysPage, CreatedApiKey, errors, IsoDate, ScopeSchema } from "../schemas.ts";
import { guard } from "./guard.ts";

export const apiKeyRoutes = (parlance: Parlance) =>
  new Elysia({ name: "api-keys" })
    .get(
      "/api/v1/api-keys",
      async ({ request, query }) => ({
        success: true,
        ...(await parlance.listKeys(principalOf(request), query.limit, query.offset)),
      }),
      {
        ...guard("apiKeys.manage"),
        query: t.Object({
          // Bounds are checked by core's paging(): a query bound failing here would not name the field.
          limit: t.Optional(t.Integer({ default: 20, description: "1 to 100" })),
          offset: t.Optional(t.Integer({ default: 0, description: "0 or more" })),
        }),
        response: {
          200: ApiKeysPage,
          ...errors(400, 401, 403, 429, 500),
        },
        detail: operation({
          id: "listApiKeys",
          summary: "List the organization's API keys",
          description: "Newest first. Listings show the key's prefix, never the key.",
          tag: "API keys",
          scope: "admin",
        }),
      },
    )
    .post(
      "/api/v1/api-keys",
      async ({ request, body, set }) => {
        const created = await parlance.createKey(principalOf(request), body);
        set.status = 201;
        return { success: true, data: created };
      },
      {
        ...guard("apiKeys.manage"),
        parse: "json",
        body: t.Object({
          name: t.String({ description: "1 to 100 characters, unique in the organization" }),
          scopes: t.Array(ScopeSchema, { minItems: 1 }),
          // TypeBox's own Integer: Elysia's t.Integer would also take "5" from a JSON body.
          rateLimit: t.Optional(Type.Integer({ minimum: 1, maximum: 10000, default: 1000 })),
          expiresAt: t.Optional(t.Union([IsoDate, t.Null()])),
        }),
        response: {
          201: t.Object({ success: t.Boolean(), data: CreatedApiKey }, { description: "The new key" }),
          ...errors(400, 401, 403, 409, 429, 500),
        },
        detail: operation({
          id: "createApiKey",
          summary: "Create an API key",
          description:
            "The key belongs to the caller's organization. The full key is in this response only. " +
            "Names are unique within the organization (409).",
          tag: "API keys",
          scope: "admin",
          hasBody: true,
          requestBodyName: "ApiKeyRequest",
          // Not yet required: the no-store header arrives with the http-hardening work.
          headers: { 201: { "Cache-Control": false } },
        }),
      },
    );
