import { Elysia, t } from "elysia";
import { requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { data, describe, errors, MeSchema, SessionSchema } from "./schemas.ts";

/** The signed-in person: profile, password, own sessions. */
export const meRoutes = (kit: WorkspaceKit) =>
  new Elysia({ name: "workspace-me" })
    .get(
      `${WORKSPACE_PREFIX}/me`,
      async ({ request }) => {
        const { user } = await kit.signedIn(request);
        return { data: await kit.parlance.people.me(user) };
      },
      {
        ...requireUser(kit),
        response: { 200: data(MeSchema, "The signed-in person"), ...errors(401) },
        detail: describe({ id: "getMe", summary: "Who is signed in, and their organizations", tag: "Me" }),
      },
    )
    .patch(
      `${WORKSPACE_PREFIX}/me`,
      async ({ request, body }) => {
        const { user } = await kit.signedIn(request);
        return { data: await kit.parlance.people.updateMe(user, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        body: t.Object({
          name: t.Optional(t.String()),
          email: t.Optional(t.String()),
          currentPassword: t.Optional(
            t.String({ description: "Your password: required when `email` changes" }),
          ),
        }),
        response: { 200: data(MeSchema, "The updated person"), ...errors(400, 401, 403, 409, 429) },
        detail: describe({
          id: "updateMe",
          summary: "Change your name or email",
          description:
            "A new email needs `currentPassword` (400 without it or when it is wrong), as a password change does. Wrong current passwords are limited per person like sign-in attempts (429 with Retry-After).",
          tag: "Me",
        }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/me/password`,
      async ({ request, body, set }) => {
        const { user, session } = await kit.signedIn(request);
        await kit.parlance.people.changePassword(user, session.id, body);
        set.status = 204;
        return undefined;
      },
      {
        ...requireUser(kit),
        parse: "json",
        body: t.Object({ currentPassword: t.String(), newPassword: t.String() }),
        response: {
          204: t.Void({ description: "Changed; every other session ended" }),
          ...errors(400, 401, 403, 429),
        },
        detail: describe({
          id: "changePassword",
          summary: "Change your password",
          description:
            "Needs the current password (attempts limited per person like sign-in, 429 beyond). Ends every other session of yours.",
          tag: "Me",
        }),
      },
    )
    .get(
      `${WORKSPACE_PREFIX}/me/sessions`,
      async ({ request }) => {
        const { user, session } = await kit.signedIn(request);
        return { data: await kit.parlance.people.listSessions(user.id, session.id) };
      },
      {
        ...requireUser(kit),
        response: {
          200: data(t.Array(SessionSchema), "Your live sessions, most recently used first"),
          ...errors(401),
        },
        detail: describe({ id: "listSessions", summary: "Your sessions", tag: "Me" }),
      },
    )
    .delete(
      `${WORKSPACE_PREFIX}/me/sessions/:sessionId`,
      async ({ request, params, set }) => {
        const { user } = await kit.signedIn(request);
        await kit.parlance.people.revokeSession(user.id, params.sessionId);
        set.status = 204;
        return undefined;
      },
      {
        ...requireUser(kit),
        params: t.Object({ sessionId: t.String() }),
        response: { 204: t.Void({ description: "The session ended" }), ...errors(401, 403, 404) },
        detail: describe({ id: "revokeSession", summary: "End one of your sessions", tag: "Me" }),
      },
    );
