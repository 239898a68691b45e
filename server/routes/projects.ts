import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
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
        200: t.Object({ success: t.Boolean(), data: t.Array(Project) }),
        ...errors(401, 403, 429, 500),
      },
      detail: {
        summary: "List the organization's projects",
        description: "Sorted by name, then id.",
        tags: ["Projects"],
      },
    },
  );
