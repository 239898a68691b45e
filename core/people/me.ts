import type { Deps } from "../context.ts";
import { invalid, notFound } from "../errors.ts";
import type { Role } from "../principal.ts";
import { checkNewPassword, MAX_PASSWORD_LENGTH } from "./passwords.ts";
import type { User } from "./types.ts";
import { checkEmail, checkName, type UserView, userView } from "./users.ts";

export interface MembershipView {
  orgId: string;
  orgName: string;
  role: Role;
  languages: string[] | null;
}

export interface MeView {
  user: UserView;
  memberships: MembershipView[];
}

export async function me(deps: Deps, user: User): Promise<MeView> {
  const memberships = await deps.storage.memberships.listByUser(user.id);
  const views: MembershipView[] = [];
  for (const m of memberships) {
    const org = await deps.storage.orgs.get(m.orgId);
    if (org) views.push({ orgId: org.id, orgName: org.name, role: m.role, languages: m.languages });
  }
  views.sort((a, b) => (a.orgName < b.orgName ? -1 : a.orgName > b.orgName ? 1 : a.orgId < b.orgId ? -1 : 1));
  return { user: userView(user), memberships: views };
}

export async function updateMe(
  deps: Deps,
  user: User,
  change: { name?: string; email?: string },
): Promise<MeView> {
  const next = {
    name: change.name === undefined ? undefined : checkName(change.name),
    email: change.email === undefined ? undefined : checkEmail(change.email),
  };
  const updated = await deps.storage.users.update(user.id, next, deps.clock.now().toISOString());
  if (!updated) throw notFound("User not found");
  return me(deps, updated);
}

/** Sets a new password after checking the current one; every other session of the user ends. */
export async function changePassword(
  deps: Deps,
  user: User,
  keepSessionId: string | null,
  req: { currentPassword: string; newPassword: string },
): Promise<void> {
  const current = req.currentPassword.slice(0, MAX_PASSWORD_LENGTH + 1);
  if (!(await deps.passwords.verify(current, user.passwordHash)))
    throw invalid("currentPassword is not your current password");
  checkNewPassword(req.newPassword);
  const now = deps.clock.now().toISOString();
  await deps.storage.users.setPasswordHash(user.id, await deps.passwords.hash(req.newPassword), now);
  await deps.storage.sessions.deleteForUser(user.id, keepSessionId);
}
