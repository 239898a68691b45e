import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
import { MAX_OFFSET } from "../query-integer.ts";
import { principalOf } from "../request-state.ts";
import { errors, Locale, TranslationsPage, Uuid } from "../schemas.ts";
import { guard } from "./guard.ts";

/** Read-only extension: how clients learn the ids that `selected_ids` takes. */
export const translationRoutes = (parlance: Parlance) =>
  new Elysia({ name: "translations" }).get(
    "/api/v1/translations",
    async ({ request, query }) => ({
      success: true,
      ...(await parlance.listTranslations(principalOf(request), {
        projectId: query.project_id,
        language: query.language,
        limit: query.limit,
        offset: query.offset,
      })),
    }),
    {
      ...guard("translations.read", {
        integers: { limit: { min: 1, max: 1000 }, offset: { min: 0, max: MAX_OFFSET } },
      }),
      query: t.Object({
        project_id: Uuid("Project to list"),
        language: Locale("Language to list"),
        // Read by guard's strict integer reader (400 naming the parameter); defaults applied in core.
        limit: t.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Default: 100." })),
        offset: t.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: "Default: 0." })),
      }),
      response: {
        200: TranslationsPage,
        ...errors(400, 401, 403, 404, 429, 500),
      },
      detail: operation({
        id: "listTranslations",
        summary: "List one language's translations (read-only)",
        description:
          "Keys in code-point order. The ids are what selected_ids of /pull takes; rows change only by push.",
        tag: "Translations",
        scope: "translations:read",
      }),
    },
  );
