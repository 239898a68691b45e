import { Elysia, t } from "elysia";
import type { Parlance } from "../../core/index.ts";
import { principalOf } from "../request-state.ts";
import { errors, KeyInfo, Project, Uuid } from "../schemas.ts";
import { guard } from "./guard.ts";

/** `GET /test` and `GET /project`: no scope needed. */
export const keyInfoRoutes = (parlance: Parlance) =>
  new Elysia({ name: "key-info" })
    .get(
      "/api/v1/test",
      async ({ request }) => ({ success: true, data: await parlance.keyInfo(principalOf(request)) }),
      {
        ...guard(),
        response: { 200: t.Object({ success: t.Boolean(), data: KeyInfo }), ...errors(401, 429, 500) },
        detail: {
          summary: "Verify authentication",
          description: "The calling key's name, organization, scopes, rate limit and usage count.",
          tags: ["Account"],
        },
      },
    )
    .get(
      "/api/v1/project",
      async ({ request, query }) => {
        const principal = principalOf(request);
        if (query.project_id === undefined) return { success: true, data: await parlance.keyInfo(principal) };
        return { success: true, data: await parlance.getProject(principal, query.project_id) };
      },
      {
        ...guard(),
        query: t.Object({
          project_id: t.Optional(Uuid("Project to describe; without it, the key's own info")),
        }),
        response: {
          200: t.Object({ success: t.Boolean(), data: t.Union([Project, KeyInfo]) }),
          ...errors(400, 401, 404, 429, 500),
        },
        detail: { summary: "One project's metadata, or the key's info", tags: ["Projects"] },
      },
    );
