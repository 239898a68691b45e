import { Elysia, t } from "elysia";
import { SESSION_ABSOLUTE_MS } from "../../core/index.ts";
import { clearedSessionCookie, secureCookies, sessionCookie } from "./cookies.ts";
import { parseJson, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { data, describe, errors, MeSchema } from "./schemas.ts";

/** `POST /session` (sign in) and `DELETE /session` (sign out). */
export const sessionRoutes = (kit: WorkspaceKit) => {
  const secure = secureCookies(kit.options.publicUrl);
  return new Elysia({ name: "workspace-session" })
    .post(
      `${WORKSPACE_PREFIX}/session`,
      async ({ request, body, set }) => {
        const { token, user } = await kit.parlance.people.signIn({
          email: body.email,
          password: body.password,
          address: kit.addressOf(request),
          userAgent: request.headers.get("user-agent"),
        });
        set.headers["set-cookie"] = sessionCookie(token, SESSION_ABSOLUTE_MS / 1000, secure);
        set.headers["cache-control"] = "no-store";
        return { data: await kit.parlance.people.me(user) };
      },
      {
        ...parseJson,
        parse: "json",
        body: t.Object({ email: t.String(), password: t.String() }),
        response: {
          200: data(MeSchema, "Signed in: the session cookie is set"),
          ...errors(400, 401, 403, 429),
        },
        detail: describe({
          id: "signIn",
          summary: "Sign in",
          description:
            "Sets the `parlance_session` cookie. An unknown email and a wrong password get the same 401. " +
            "Attempts are limited per account and per client address (429 with Retry-After).",
          tag: "Session",
          public: true,
        }),
      },
    )
    .delete(
      `${WORKSPACE_PREFIX}/session`,
      async ({ request, set }) => {
        const signedIn = await kit.signedIn(request).catch(() => null);
        if (signedIn) await kit.parlance.people.signOut(signedIn.session.id, signedIn.user.id);
        set.headers["set-cookie"] = clearedSessionCookie(secure);
        set.status = 204;
        return undefined;
      },
      {
        response: {
          204: t.Void({ description: "Signed out (also when no session was there)" }),
          ...errors(403),
        },
        detail: describe({
          id: "signOut",
          summary: "Sign out",
          description: "Ends the session of this request and clears the cookie.",
          tag: "Session",
          public: true,
        }),
      },
    );
};
