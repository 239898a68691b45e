import type { Deps } from "../context.ts";
import { notFound } from "../errors.ts";
import { isUuid } from "../ids.ts";
import type { UserPrincipal } from "../principal.ts";
import type { User } from "./types.ts";

/**
 * The signed-in user acting in `orgId`. Not a member, or no such organization: the same 404, so an
 * outsider learns nothing about organizations they do not belong to.
 */
export async function memberOf(
  deps: Deps,
  user: Pick<User, "id" | "name">,
  orgId: string,
): Promise<UserPrincipal> {
  const membership = isUuid(orgId) ? await deps.storage.memberships.get(orgId, user.id) : null;
  if (!membership) throw notFound("Organization not found");
  return {
    kind: "user",
    orgId,
    actor: { kind: "user", userId: user.id, name: user.name },
    userId: user.id,
    role: membership.role,
    languages: membership.languages,
  };
}
