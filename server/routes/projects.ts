import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
import { principalOf } from "../request-state.ts";
import { errors, Project } from "../schemas.ts";
import { guard } from "./guard.ts";

export const projectRoutes = (parlance: Parlance) =>
  new Elysia({ name: "projects" }).get(
    "/api/v1/projects",
    async ({ request }) => ({ success: true, data: await parlance.listProjects(principalOf(request)) }),
    {
      ...guard("projects.list"),
      response: {
        200: t.Object({ success: t.Boolean(), data: t.Array(Project) }, { description: "The projects" }),
        ...errors(401, 403, 429, 500),
      },
      detail: operation({
        id: "listProjects",
        summary: "List the organization's projects",
        description: "Every project of the key's organization that is not deleted, sorted by name, then id.",
        tag: "Projects",
        scope: "translations:read",
      }),
    },
  );
