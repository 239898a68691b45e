import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
import { principalOf } from "../request-state.ts";
import { errors, ImportJob, Uuid } from "../schemas.ts";
import { guard } from "./guard.ts";

export const jobRoutes = (parlance: Parlance) =>
  new Elysia({ name: "jobs" }).get(
    "/api/v1/jobs/:jobId",
    async ({ request, params }) => ({ data: await parlance.getJob(principalOf(request), params.jobId) }),
    {
      ...guard("jobs.read"),
      params: t.Object({ jobId: Uuid("The jobId returned by push") }),
      response: {
        200: t.Object({ data: ImportJob }, { description: "The job" }),
        ...errors(400, 401, 403, 404, 429, 500),
      },
      detail: operation({
        id: "getJob",
        summary: "Poll an import job",
        description:
          "Poll while status is pending or running; it ends completed (summary) or failed (errorMessage). " +
          "Another organization's job is 404.",
        tag: "Jobs",
        scope: "translations:read",
      }),
    },
  );
