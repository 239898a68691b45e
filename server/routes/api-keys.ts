import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
import { MAX_OFFSET } from "../query-integer.ts";
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
        ...guard("apiKeys.manage", {
          integers: { limit: { min: 1, max: 100 }, offset: { min: 0, max: MAX_OFFSET } },
        }),
        query: t.Object({
          // Read by guard's strict integer reader (400 naming the parameter); defaults applied in core.
          limit: t.Optional(Type.Integer({ minimum: 1, maximum: 100, description: "Default: 20." })),
          offset: t.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: "Default: 0." })),
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
        // The answer holds the only copy of the key: no cache may keep it.
        set.headers["cache-control"] = "no-store";
        return { success: true, data: created };
      },
      {
        ...guard("apiKeys.manage"),
        parse: "json",
        body: t.Object({
          name: t.String({ description: "1 to 100 characters, unique in the organization" }),
          scopes: t.Array(ScopeSchema, { minItems: 1 }),
          // TypeBox's own Integer: Elysia's t.Integer would also take "5" from a JSON body.
          // No `default`: see server/routes/push.ts. Core applies 1000.
          rateLimit: t.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: "Default: 1000." })),
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
          headers: { 201: { "Cache-Control": true } },
        }),
      },
    );
