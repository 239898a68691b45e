import type { Deps } from "../context.ts";
import { invalid, notFound } from "../errors.ts";
import type { Role } from "../principal.ts";
import { checkNewPassword, MAX_PASSWORD_LENGTH } from "./passwords.ts";
import { SIGN_IN_LIMITS, SignInThrottled } from "./sign-in.ts";
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

/**
 * 400 unless `given` is the user's password. The email and the password are what sign in, so a
 * session alone (a borrowed laptop, a stolen cookie) must not change either; the guesses it allows
 * are limited per user like sign-in attempts (429 beyond), so a session cannot test passwords
 * without end.
 */
async function verifyCurrentPassword(deps: Deps, user: User, given: string | undefined): Promise<void> {
  if (given === undefined) throw invalid("currentPassword is required to change the email");
  const nowMs = deps.clock.now().getTime();
  const decision = await deps.rateLimiter.consume(
    `password:current:${user.id}`,
    SIGN_IN_LIMITS.perAccount,
    SIGN_IN_LIMITS.windowMs,
    nowMs,
  );
  if (!decision.allowed)
    throw new SignInThrottled(
      Math.max(1, Math.ceil((decision.resetAt - nowMs) / 1000)),
      "Too many password checks; wait before trying again",
    );
  if (!(await deps.passwords.verify(given.slice(0, MAX_PASSWORD_LENGTH + 1), user.passwordHash)))
    throw invalid("currentPassword is not your current password");
}

/**
 * Changes the display name and/or the email. A new email (other than the current one in another
 * case) needs `currentPassword`, as a password change does.
 */
export async function updateMe(
  deps: Deps,
  user: User,
  change: { name?: string; email?: string; currentPassword?: string },
): Promise<MeView> {
  const next = {
    name: change.name === undefined ? undefined : checkName(change.name),
    email: change.email === undefined ? undefined : checkEmail(change.email),
  };
  if (next.email !== undefined && next.email.toLowerCase() !== user.email.toLowerCase())
    await verifyCurrentPassword(deps, user, change.currentPassword);
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
  await verifyCurrentPassword(deps, user, req.currentPassword);
  checkNewPassword(req.newPassword);
  const now = deps.clock.now().toISOString();
  await deps.storage.users.setPasswordHash(user.id, await deps.passwords.hash(req.newPassword), now);
  await deps.storage.sessions.deleteForUser(user.id, keepSessionId);
}
