import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
import { principalOf } from "../request-state.ts";
import { Coverage, errors, Uuid } from "../schemas.ts";
import { guard } from "./guard.ts";

export const coverageRoutes = (parlance: Parlance) =>
  new Elysia({ name: "coverage" }).get(
    "/api/v1/coverage",
    async ({ request, query }) => ({ data: await parlance.coverage(principalOf(request), query.project_id) }),
    {
      ...guard("coverage.read"),
      query: t.Object({ project_id: Uuid("Project to report on") }),
      response: {
        200: t.Object({ data: Coverage }, { description: "The coverage report" }),
        ...errors(400, 401, 403, 404, 429, 500),
      },
      detail: operation({
        id: "getCoverage",
        summary: "Per-locale translation coverage",
        description:
          "Reference keys are the base language's keys with a non-empty value; one entry per language, " +
          "base first, then by code.",
        tag: "Coverage",
        scope: "translations:read",
      }),
    },
  );
