import { Elysia, t } from "elysia";
import { SESSION_ABSOLUTE_MS } from "../../core/index.ts";
import { secureCookies, sessionCookie } from "./cookies.ts";
import { parseJson, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { data, describe, errors, MeSchema } from "./schemas.ts";

/** The first owner, through the setup link `parlance serve` prints while the store has no user. */
export const setupRoutes = (kit: WorkspaceKit) => {
  const secure = secureCookies(kit.options.publicUrl);
  return new Elysia({ name: "workspace-setup" })
    .get(
      `${WORKSPACE_PREFIX}/setup`,
      async () => {
        const needed = (await kit.parlance.storage.users.count()) === 0;
        // Said only while setup is open: the setup page asks for a name only when one is used.
        const organizationNeeded = needed && (await kit.parlance.admin.listOrgs()).length === 0;
        return { data: { needed, organizationNeeded } };
      },
      {
        response: {
          200: data(
            t.Object({
              needed: t.Boolean({ description: "True while the store has no user" }),
              organizationNeeded: t.Boolean({
                description:
                  "True while setup is needed and the store holds no organization: the name given at setup creates it",
              }),
            }),
            "Whether the first owner is still to be created",
          ),
        },
        detail: describe({ id: "getSetup", summary: "Whether setup is needed", tag: "Setup", public: true }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/setup`,
      async ({ request, body, set }) => {
        const user = await kit.parlance.people.completeSetup(body);
        const { token } = await kit.parlance.people.startSession(user.id, request.headers.get("user-agent"));
        set.headers["set-cookie"] = sessionCookie(token, SESSION_ABSOLUTE_MS / 1000, secure);
        set.headers["cache-control"] = "no-store";
        set.status = 201;
        return { data: await kit.parlance.people.me(user) };
      },
      {
        ...parseJson,
        parse: "json",
        body: t.Object({
          token: t.String({ description: "The secret after `#` in the setup link" }),
          email: t.String(),
          name: t.String(),
          password: t.String({ description: "10 characters or more, not a common password" }),
          organizationName: t.Optional(
            t.String({
              description: "Names the organization created when the store has none (default: Default)",
            }),
          ),
        }),
        response: {
          201: data(MeSchema, "The first owner, signed in"),
          ...errors(400, 403, 404, 409),
        },
        detail: describe({
          id: "completeSetup",
          summary: "Create the first owner",
          description:
            "Creates the first user, owner of every organization of the store (one is created when there " +
            "is none), and signs them in. 404 for an unknown, used or expired link; 409 once a user exists.",
          tag: "Setup",
          public: true,
        }),
      },
    );
};
