import { Elysia, t } from "elysia";
import { requireUser, WORKSPACE_PREFIX, type WorkspaceKit } from "./kit.ts";
import { data, describe, errors, LanguagesSchema, MemberSchema, OneTimeLinkSchema } from "./schemas.ts";

const orgParams = t.Object({ orgId: t.String() });
const memberParams = t.Object({ orgId: t.String(), userId: t.String() });

/** An organization's members: list, change role and languages, remove, reset links. */
export const membersRoutes = (kit: WorkspaceKit) =>
  new Elysia({ name: "workspace-members" })
    .get(
      `${WORKSPACE_PREFIX}/orgs/:orgId/members`,
      async ({ request, params }) => {
        const principal = await kit.memberOf(request, params.orgId);
        return { data: await kit.parlance.people.listMembers(principal) };
      },
      {
        ...requireUser(kit),
        params: orgParams,
        response: { 200: data(t.Array(MemberSchema), "Members, by email"), ...errors(401, 404) },
        detail: describe({ id: "listMembers", summary: "The organization's members", tag: "Members" }),
      },
    )
    .patch(
      `${WORKSPACE_PREFIX}/orgs/:orgId/members/:userId`,
      async ({ request, params, body }) => {
        const principal = await kit.memberOf(request, params.orgId);
        return { data: await kit.parlance.people.changeMember(principal, params.userId, body) };
      },
      {
        ...requireUser(kit),
        parse: "json",
        params: memberParams,
        // Not RoleSchema: Elysia fills an absent enum with its first value, which would make an owner.
        body: t.Object({
          role: t.Optional(t.String({ description: "owner, admin, developer, reviewer or translator" })),
          languages: t.Optional(LanguagesSchema),
        }),
        response: { 200: data(MemberSchema, "The member as changed"), ...errors(400, 401, 403, 404, 409) },
        detail: describe({
          id: "changeMember",
          summary: "Change a member's role or languages",
          description:
            "members.manage; making or unmaking an owner needs owners.manage. Languages apply to reviewers " +
            "and translators (null: every language). 409 when the organization would have no owner left.",
          tag: "Members",
        }),
      },
    )
    .delete(
      `${WORKSPACE_PREFIX}/orgs/:orgId/members/:userId`,
      async ({ request, params, set }) => {
        const principal = await kit.memberOf(request, params.orgId);
        await kit.parlance.people.removeMember(principal, params.userId);
        set.status = 204;
        return undefined;
      },
      {
        ...requireUser(kit),
        params: memberParams,
        response: { 204: t.Void({ description: "Removed" }), ...errors(401, 403, 404, 409) },
        detail: describe({
          id: "removeMember",
          summary: "Remove a member (or leave)",
          description:
            "members.manage (owners.manage for an owner); anyone may remove themselves. Never the last owner (409).",
          tag: "Members",
        }),
      },
    )
    .post(
      `${WORKSPACE_PREFIX}/orgs/:orgId/members/:userId/password-reset`,
      async ({ request, params, set }) => {
        const principal = await kit.memberOf(request, params.orgId);
        const { secret, expiresAt } = await kit.parlance.people.createPasswordReset(principal, params.userId);
        set.status = 201;
        return { data: { link: kit.link(request, "reset", secret), token: secret, expiresAt } };
      },
      {
        ...requireUser(kit),
        params: memberParams,
        response: {
          201: data(OneTimeLinkSchema, "The reset link (valid 24 hours)"),
          ...errors(401, 403, 404),
        },
        detail: describe({
          id: "createPasswordReset",
          summary: "A password-reset link for a member",
          description:
            "members.manage (owners.manage for an owner). Completing it ends every session of that person.",
          tag: "Members",
        }),
      },
    );

export { orgParams };
