import { authorize } from "../authorization.ts";
import type { Deps } from "../context.ts";
import { conflict, notFound } from "../errors.ts";
import { isUuid } from "../ids.ts";
import type { Role, UserPrincipal } from "../principal.ts";
import { authorizeMemberChange, checkLanguages, checkRole } from "./roles.ts";
import { SECRET_PATTERN } from "./secrets.ts";
import { consumeOneTimeToken, INVITATION_MS, issueOneTimeToken, linkInvalid } from "./setup.ts";
import type { OneTimeToken, User } from "./types.ts";
import { checkEmail, type NewUser, prepareUser } from "./users.ts";

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  languages: string[] | null;
  createdAt: string;
  expiresAt: string;
}

/** What the invitation page shows before accepting. */
export interface InvitationLookup extends InvitationView {
  orgId: string;
  orgName: string;
}

const invitationView = (t: OneTimeToken): InvitationView => ({
  id: t.id,
  email: t.email ?? "",
  role: t.role ?? "translator",
  languages: t.languages,
  createdAt: t.createdAt,
  expiresAt: t.expiresAt,
});

/** Invites `email` with a role; the secret for the link (shown once) and the invitation. */
export async function invite(
  deps: Deps,
  principal: UserPrincipal | { kind: "operator"; orgId: string },
  input: { email: string; role: string; languages?: string[] | null },
): Promise<{ secret: string; invitation: InvitationView }> {
  const role = checkRole(input.role);
  if (principal.kind === "user") authorizeMemberChange(principal, role);
  const email = checkEmail(input.email);
  const languages = checkLanguages(role, input.languages);
  if (!(await deps.storage.orgs.get(principal.orgId))) throw notFound("Organization not found");
  const existing = await deps.storage.users.findByEmail(email);
  if (existing && (await deps.storage.memberships.get(principal.orgId, existing.id)))
    throw conflict("That person is already a member");
  const { secret, token } = await issueOneTimeToken(deps, "invitation", INVITATION_MS, {
    orgId: principal.orgId,
    email,
    role,
    languages,
    createdBy: principal.kind === "user" ? principal.userId : null,
  });
  return { secret, invitation: invitationView(token) };
}

export async function listInvitations(deps: Deps, principal: UserPrincipal): Promise<InvitationView[]> {
  authorize(principal, "members.manage");
  const open = await deps.storage.oneTimeTokens.listInvitations(
    principal.orgId,
    deps.clock.now().toISOString(),
  );
  return open.map(invitationView);
}

export async function revokeInvitation(deps: Deps, principal: UserPrincipal, id: string): Promise<void> {
  authorize(principal, "members.manage");
  const token = isUuid(id) ? await deps.storage.oneTimeTokens.get(id) : null;
  if (token?.kind !== "invitation" || token.orgId !== principal.orgId) throw notFound("Invitation not found");
  if (token.role === "owner") authorize(principal, "owners.manage");
  if (!(await deps.storage.oneTimeTokens.revoke(id, deps.clock.now().toISOString())))
    throw notFound("Invitation not found");
}

/** An open invitation by its secret, without using it; 404 when unknown, used or expired. */
async function openInvitation(deps: Deps, secret: string): Promise<OneTimeToken> {
  if (!SECRET_PATTERN.test(secret)) throw linkInvalid();
  const token = await deps.storage.oneTimeTokens.findByHash(deps.hasher.sha256Hex(secret));
  if (
    token?.kind !== "invitation" ||
    token.usedAt !== null ||
    token.expiresAt <= deps.clock.now().toISOString()
  )
    throw linkInvalid();
  return token;
}

export async function lookupInvitation(deps: Deps, secret: string): Promise<InvitationLookup> {
  const token = await openInvitation(deps, secret);
  const org = token.orgId ? await deps.storage.orgs.get(token.orgId) : null;
  if (!org) throw linkInvalid();
  return { ...invitationView(token), orgId: org.id, orgName: org.name };
}

/**
 * Accepts an invitation. Signed in with the invited email: the membership is added to that
 * account. Otherwise a new account is made from `name` and `password` (409 when the email already
 * has an account: sign in first). Everything is checked before the token is used.
 */
export async function acceptInvitation(
  deps: Deps,
  secret: string,
  signedIn: User | null,
  account: Partial<Pick<NewUser, "name" | "password">>,
): Promise<{ user: User; created: boolean }> {
  const open = await openInvitation(deps, secret);
  const email = open.email ?? "";
  let user: User;
  let created = false;
  if (signedIn && signedIn.email.toLowerCase() === email.toLowerCase()) {
    user = signedIn;
    if (open.orgId && (await deps.storage.memberships.get(open.orgId, user.id)))
      throw conflict("You are already a member of this organization");
  } else {
    if (await deps.storage.users.findByEmail(email))
      throw conflict("An account with this email exists: sign in with it, then open the link again");
    user = await prepareUser(deps, { email, name: account.name ?? "", password: account.password ?? "" });
    created = true;
  }
  const token = await consumeOneTimeToken(deps, secret, "invitation");
  if (created) await deps.storage.users.create(user);
  await deps.storage.memberships.create({
    orgId: token.orgId ?? "",
    userId: user.id,
    role: token.role ?? "translator",
    languages: token.languages,
    createdAt: deps.clock.now().toISOString(),
  });
  return { user, created };
}
