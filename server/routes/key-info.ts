import { Elysia, t } from "elysia";
import type { KeyPrincipal, Parlance } from "../../core/index.ts";
import { operation } from "../openapi/operation.ts";
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
        response: {
          200: t.Object(
            { success: t.Boolean(), data: KeyInfo },
            { description: "The credential's key info" },
          ),
          ...errors(401, 429, 500),
        },
        detail: operation({
          id: "verifyAuthentication",
          summary: "Verify authentication",
          description: "The calling credential's key name, organization, scopes, rate limit and usage count.",
          tag: "Account",
          scope: null,
        }),
      },
    )
    .get(
      "/api/v1/project",
      // A plain function, as the request hook (server/app.ts): Elysia awaits what it returns.
      ({ request, query }) => projectOrKeyInfo(parlance, principalOf(request), query.project_id),
      {
        ...guard(),
        query: t.Object({
          project_id: t.Optional(Uuid("Project to describe; without it, the key's own info")),
        }),
        response: {
          200: t.Object(
            { success: t.Boolean(), data: t.Union([Project, KeyInfo]) },
            { description: "The project, or without project_id the key info" },
          ),
          ...errors(400, 401, 404, 429, 500),
        },
        detail: operation({
          id: "getProject",
          summary: "One project's metadata, or the key's info",
          description:
            "With project_id: that project (404 when it is not in the key's organization). " +
            "Without: the same key info as GET /api/v1/test.",
          tag: "Projects",
          scope: null,
        }),
      },
    );

/**
 * `GET /project`'s answer: the project, or without an id the key's info. A project the store holds
 * in memory is answered without a promise (issue 13, small GET); only a wait returns one.
 */
function projectOrKeyInfo(parlance: Parlance, principal: KeyPrincipal, id: string | undefined) {
  if (id === undefined) return parlance.keyInfo(principal).then((data) => ({ success: true, data }));
  const project = parlance.getProjectNow(principal, id);
  if (project) return { success: true, data: project };
  return parlance.getProject(principal, id).then((data) => ({ success: true, data }));
}
