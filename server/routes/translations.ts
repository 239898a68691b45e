import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
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
      ...guard("translations.read"),
      query: t.Object({
        project_id: Uuid("Project to list"),
        language: Locale("Language to list"),
        // Bounds are checked by core's paging(): a query bound failing here would not name the field.
        limit: t.Optional(t.Integer({ default: 100, description: "1 to 1000" })),
        offset: t.Optional(t.Integer({ default: 0, description: "0 or more" })),
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
