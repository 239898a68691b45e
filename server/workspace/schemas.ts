import { t } from "elysia";
import { ROLES } from "../../core/index.ts";
import { component, IsoDate, withoutDefault } from "../schemas.ts";

/** The same Error object and error-status helper as /api/v1. */
export { ErrorObject, errors } from "../schemas.ts";

export const RoleSchema = component(
  "Role",
  // withoutDefault: it is a request field too, and a default makes the framework clone the body.
  withoutDefault(t.UnionEnum(ROLES, { description: "A member's role in an organization (docs/roles.md)" })),
);

export const LanguagesSchema = t.Union([t.Array(t.String()), t.Null()], {
  description: "Languages a reviewer or translator may write; null: every language",
});

export const UserSchema = component(
  "User",
  t.Object(
    {
      id: t.String({ format: "uuid" }),
      email: t.String(),
      name: t.String(),
      createdAt: IsoDate,
    },
    { description: "A person who signs in to the workspace" },
  ),
);

export const MembershipSchema = component(
  "Membership",
  t.Object(
    {
      orgId: t.String({ format: "uuid" }),
      orgName: t.String(),
      role: RoleSchema,
      languages: LanguagesSchema,
    },
    { description: "The signed-in user's place in one organization" },
  ),
);

export const MeSchema = component(
  "Me",
  t.Object(
    { user: UserSchema, memberships: t.Array(MembershipSchema) },
    { description: "The signed-in person and the organizations they belong to" },
  ),
);

export const SessionSchema = component(
  "Session",
  t.Object(
    {
      id: t.String({ format: "uuid" }),
      createdAt: IsoDate,
      lastUsedAt: IsoDate,
      expiresAt: t.String({ format: "date-time", description: "Unless used again before (14 days idle)" }),
      userAgent: t.Union([t.String(), t.Null()]),
      current: t.Boolean({ description: "The session of this request" }),
    },
    { description: "One signed-in browser of the user" },
  ),
);

export const data = <T extends Parameters<typeof t.Object>[0][string]>(schema: T, description: string) =>
  t.Object({ data: schema }, { description });

/** What the OpenAPI document says about an operation. */
export function describe(doc: {
  id: string;
  summary: string;
  description?: string;
  tag: string;
  /** No session needed. */
  public?: boolean;
}) {
  return {
    operationId: doc.id,
    summary: doc.summary,
    description: doc.description,
    tags: [doc.tag],
    security: doc.public ? [] : [{ session: [] }],
  };
}

export const MemberSchema = component(
  "Member",
  t.Object(
    {
      userId: t.String({ format: "uuid" }),
      email: t.String(),
      name: t.String(),
      role: RoleSchema,
      languages: LanguagesSchema,
      createdAt: IsoDate,
    },
    { description: "A person in the organization and their role" },
  ),
);

export const InvitationSchema = component(
  "Invitation",
  t.Object(
    {
      id: t.String({ format: "uuid" }),
      email: t.String(),
      role: RoleSchema,
      languages: LanguagesSchema,
      createdAt: IsoDate,
      expiresAt: IsoDate,
    },
    { description: "An open invitation (not accepted, not revoked, not expired)" },
  ),
);

export const OneTimeLinkSchema = component(
  "OneTimeLink",
  t.Object(
    {
      link: t.String({ description: "`<origin>/<page>#<token>`: hand it over; it works once" }),
      token: t.String({ description: "The token alone (the part after #)" }),
      expiresAt: IsoDate,
    },
    { description: "A one-time link, shown in this answer only" },
  ),
);

export const LanguageCoverageSchema = component(
  "PeopleCoverage",
  t.Object(
    {
      language: t.String(),
      referenceKeys: t.Integer({ description: "Keys with a non-empty base value" }),
      missing: t.Integer(),
      draft: t.Integer(),
      pending: t.Integer(),
      needs_review: t.Integer(),
      approved: t.Integer(),
      warnings: t.Integer({ description: "Records with at least one check warning" }),
    },
    { description: "One language's state over the reference keys" },
  ),
);

export const ProjectAbilitiesSchema = component(
  "ProjectAbilities",
  t.Object(
    {
      edit: t.Array(t.String(), { description: "Languages whose values the caller may edit" }),
      review: t.Array(t.String(), { description: "Languages where the caller may approve" }),
      import: t.Boolean(),
      manageKeys: t.Boolean(),
      restoreKeys: t.Boolean(),
      manageProject: t.Boolean(),
    },
    { description: "What the caller may do in the project (the role table's answer)" },
  ),
);

export const WorkspaceProjectSchema = component(
  "WorkspaceProject",
  t.Object(
    {
      id: t.String({ format: "uuid" }),
      name: t.String(),
      baseLanguage: t.String(),
      languages: t.Array(t.String()),
      orgId: t.String({ format: "uuid" }),
      createdAt: IsoDate,
      can: ProjectAbilitiesSchema,
    },
    { description: "A project and what the caller may do in it" },
  ),
);

export const DashboardProjectSchema = component(
  "DashboardProject",
  t.Object(
    {
      id: t.String({ format: "uuid" }),
      name: t.String(),
      baseLanguage: t.String(),
      languages: t.Array(t.String()),
      coverage: t.Array(LanguageCoverageSchema),
    },
    { description: "A project with its coverage per language" },
  ),
);
