import { authorize } from "../authorization.ts";
import type { Deps } from "../context.ts";
import { conflict, notFound } from "../errors.ts";
import { isUuid } from "../ids.ts";
import type { Role, UserPrincipal } from "../principal.ts";
import { authorizeMemberChange, checkLanguages, checkRole } from "./roles.ts";
import type { Member, MembershipOutcome } from "./types.ts";

export interface MemberView {
  userId: string;
  email: string;
  name: string;
  role: Role;
  languages: string[] | null;
  createdAt: string;
}

export const memberView = (m: Member): MemberView => ({
  userId: m.userId,
  email: m.email,
  name: m.name,
  role: m.role,
  languages: m.languages,
  createdAt: m.createdAt,
});

export async function listMembers(deps: Deps, principal: UserPrincipal): Promise<MemberView[]> {
  authorize(principal, "members.read");
  return (await deps.storage.memberships.listByOrg(principal.orgId)).map(memberView);
}

async function targetOf(deps: Deps, principal: UserPrincipal, userId: string) {
  const membership = isUuid(userId) ? await deps.storage.memberships.get(principal.orgId, userId) : null;
  if (!membership) throw notFound("Member not found");
  return membership;
}

function outcome(result: MembershipOutcome) {
  if (result.ok) return result.membership;
  if (result.reason === "last_owner") throw conflict("The organization must keep at least one owner");
  throw notFound("Member not found");
}

async function viewOf(deps: Deps, orgId: string, userId: string): Promise<MemberView> {
  const found = (await deps.storage.memberships.listByOrg(orgId)).find((m) => m.userId === userId);
  if (!found) throw notFound("Member not found");
  return memberView(found);
}

/** Changes a member's role and/or languages; owners only by an owner; never the last owner away. */
export async function changeMember(
  deps: Deps,
  principal: UserPrincipal,
  userId: string,
  change: { role?: string; languages?: string[] | null },
): Promise<MemberView> {
  authorize(principal, "members.manage");
  const current = await targetOf(deps, principal, userId);
  const role = change.role === undefined ? current.role : checkRole(change.role);
  authorizeMemberChange(principal, current.role, role);
  const languages = checkLanguages(
    role,
    change.languages === undefined ? current.languages : change.languages,
  );
  outcome(await deps.storage.memberships.update(principal.orgId, current.userId, { role, languages }));
  return viewOf(deps, principal.orgId, current.userId);
}

/** Removes a member (anyone may leave on their own); never the last owner. */
export async function removeMember(deps: Deps, principal: UserPrincipal, userId: string): Promise<void> {
  if (userId !== principal.userId) authorize(principal, "members.manage");
  const current = await targetOf(deps, principal, userId);
  if (userId !== principal.userId) authorizeMemberChange(principal, current.role);
  outcome(await deps.storage.memberships.remove(principal.orgId, current.userId));
}
