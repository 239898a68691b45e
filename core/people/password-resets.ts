import type { Deps } from "../context.ts";
import { notFound } from "../errors.ts";
import { isUuid } from "../ids.ts";
import type { UserPrincipal } from "../principal.ts";
import { checkNewPassword } from "./passwords.ts";
import { authorizeMemberChange } from "./roles.ts";
import { consumeOneTimeToken, issueOneTimeToken, RESET_LINK_MS } from "./setup.ts";

/**
 * A reset link for a member of the caller's organization (members.manage; owners.manage for an
 * owner); the secret (shown once) and when it expires.
 */
export async function createPasswordReset(
  deps: Deps,
  principal: UserPrincipal | { kind: "operator" },
  userId: string,
): Promise<{ secret: string; expiresAt: string }> {
  if (principal.kind === "user") {
    const membership = isUuid(userId) ? await deps.storage.memberships.get(principal.orgId, userId) : null;
    if (!membership) throw notFound("Member not found");
    authorizeMemberChange(principal, membership.role);
  } else if (!isUuid(userId) || !(await deps.storage.users.get(userId))) throw notFound("User not found");
  const { secret, token } = await issueOneTimeToken(deps, "reset", RESET_LINK_MS, {
    userId,
    createdBy: principal.kind === "user" ? principal.userId : null,
  });
  return { secret, expiresAt: token.expiresAt };
}

/** Sets the password a reset link is for, and ends every session of that user. */
export async function completePasswordReset(deps: Deps, secret: string, password: string): Promise<void> {
  checkNewPassword(password);
  const hash = await deps.passwords.hash(password);
  const token = await consumeOneTimeToken(deps, secret, "reset");
  const now = deps.clock.now().toISOString();
  if (!token.userId || !(await deps.storage.users.setPasswordHash(token.userId, hash, now)))
    throw notFound("User not found");
  await deps.storage.sessions.deleteForUser(token.userId, null);
}
