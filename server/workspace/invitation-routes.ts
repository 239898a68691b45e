import { Elysia, t } from "elysia";
import { SESSION_ABSOLUTE_MS } from "../../core/index.ts";
import { component } from "../schemas.ts";
import { secureCookies, sessionCookie } from "./cookies.ts";
import { parseJson, requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import {
  data,
  describe,
  errors,
  InvitationSchema,
  LanguagesSchema,
  MeSchema,
  RoleSchema,
} from "./schemas.ts";

const CreatedInvitation = component(
  "CreatedInvitation",
  t.Composite([InvitationSchema, t.Object({ link: t.String(), token: t.String() })], {
    description: "The invitation and its one-time link (shown in this answer only)",
  }),
);

const InvitationLookup = component(
  "InvitationLookup",
  t.Composite([InvitationSchema, t.Object({ orgId: t.String({ format: "uuid" }), orgName: t.String() })], {
    description: "What an invitation offers, before it is accepted",
  }),
);

/** Invitations: made by admins (a link to hand over), looked up and accepted by the invitee. */
export const invitationRoutes = (kit: WorkspaceKit) => {
  const secure = secureCookies(kit.options.publicUrl);
  return new Elysia({ name: "workspace-invitations" })
    .post(
      `${WORKSPACE_PREFIX}/orgs/:orgId/invitations`,
      async ({ request, params, body, set }) => {
        const principal = await kit.memberOf(request, params.orgId);
        const { secret, invitation } = await kit.parlance.people.invite(principal, body);
        set.status = 201;
        return { data: { ...invitation, link: kit.link(request, "invite", secret), token: secret } };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params: t.Object({ orgId: t.String() }),
        body: t.Object({ email: t.String(), role: RoleSchema, languages: t.Optional(LanguagesSchema) }),
        response: { 201: data(CreatedInvitation, "Invited"), ...errors(400, 401, 403, 404, 409) },
        detail: describe({
          id: "createInvitation",
          summary: "Invite a person",
          description:
            "members.manage (owners.manage to invite an owner). The link is valid 7 days, once. 409 when " +
            "that email already belongs to a member.",
          tag: "Invitations",
        }),
      },
    )
    .get(
      `${WORKSPACE_PREFIX}/orgs/:orgId/invitations`,
      async ({ request, params }) => {
        const principal = await kit.memberOf(request, params.orgId);
        return { data: await kit.parlance.people.listInvitations(principal) };
      },
      {
        ...requireUser(kit),
        params: t.Object({ orgId: t.String() }),
        response: {
          200: data(t.Array(InvitationSchema), "Open invitations, newest first"),
          ...errors(401, 403, 404),
        },
        detail: describe({ id: "listInvitations", summary: "Open invitations", tag: "Invitations" }),
      },
    )
    .delete(
      `${WORKSPACE_PREFIX}/orgs/:orgId/invitations/:invitationId`,
      async ({ request, params, set }) => {
        const principal = await kit.memberOf(request, params.orgId);
        await kit.parlance.people.revokeInvitation(principal, params.invitationId);
        set.status = 204;
        return undefined;
      },
      {
        ...requireUser(kit),
        params: t.Object({ orgId: t.String(), invitationId: t.String() }),
        response: {
          204: t.Void({ description: "Revoked: the link no longer works" }),
          ...errors(401, 403, 404),
        },
        detail: describe({ id: "revokeInvitation", summary: "Revoke an invitation", tag: "Invitations" }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/invitations/lookup`,
      async ({ body }) => ({ data: await kit.parlance.people.lookupInvitation(body.token) }),
      {
        ...parseJson,
        parse: "json",
        body: t.Object({ token: t.String() }),
        response: { 200: data(InvitationLookup, "The invitation"), ...errors(400, 403, 404) },
        detail: describe({
          id: "lookupInvitation",
          summary: "What an invitation link offers",
          description: "Does not use the link. 404 for an unknown, used or expired one.",
          tag: "Invitations",
          public: true,
        }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/invitations/accept`,
      async ({ request, body, set }) => {
        const current = await kit.signedIn(request).catch(() => null);
        const { user, created } = await kit.parlance.people.acceptInvitation(
          body.token,
          current?.user ?? null,
          body,
        );
        if (!current || current.user.id !== user.id) {
          const { token } = await kit.parlance.people.startSession(
            user.id,
            request.headers.get("user-agent"),
          );
          set.headers["set-cookie"] = sessionCookie(token, SESSION_ABSOLUTE_MS / 1000, secure);
        }
        set.status = created ? 201 : 200;
        return { data: await kit.parlance.people.me(user) };
      },
      {
        ...parseJson,
        parse: "json",
        body: t.Object({
          token: t.String(),
          name: t.Optional(t.String({ description: "For a new account" })),
          password: t.Optional(t.String({ description: "For a new account: 10 characters or more" })),
        }),
        response: {
          200: data(MeSchema, "Joined, with the account signed in"),
          201: data(MeSchema, "Account created, joined and signed in"),
          ...errors(400, 403, 404, 409),
        },
        detail: describe({
          id: "acceptInvitation",
          summary: "Accept an invitation",
          description:
            "Signed in with the invited email: joins with that account. Otherwise creates the account " +
            "from name and password and signs it in (409 when the email has an account already: sign in first).",
          tag: "Invitations",
          public: true,
        }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/password-resets/complete`,
      async ({ body, set }) => {
        await kit.parlance.people.completePasswordReset(body.token, body.password);
        set.status = 204;
        return undefined;
      },
      {
        ...parseJson,
        parse: "json",
        body: t.Object({ token: t.String(), password: t.String() }),
        response: {
          204: t.Void({ description: "The password is set; every session ended" }),
          ...errors(400, 403, 404),
        },
        detail: describe({
          id: "completePasswordReset",
          summary: "Set a new password from a reset link",
          tag: "Invitations",
          public: true,
        }),
      },
    );
};
