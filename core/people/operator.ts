import type { Deps } from "../context.ts";
import { conflict, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Role } from "../principal.ts";
import { type InvitationView, invite } from "./invitations.ts";
import { type MembershipView, me } from "./me.ts";
import { createPasswordReset } from "./password-resets.ts";
import { checkLanguages, checkRole } from "./roles.ts";
import { newSecret } from "./secrets.ts";
import { checkEmail, checkName, type UserView } from "./users.ts";

/**
 * The operator's command line (`parlance admin user …`): the same use cases as the workspace,
 * on the operator's authority. Passwords never pass through a command line: a new account gets a
 * reset link to choose its own.
 */

export interface CreatedUser {
  user: UserView;
  memberships: MembershipView[];
  /** The secret of the link where the person sets a password. */
  secret: string;
  expiresAt: string;
}

/**
 * Creates an account. With `orgId`, a member of it with `role` (default translator); without, on a
 * store that has no user yet, the owner of every organization (like the setup link); otherwise 400.
 */
export async function createUserAsOperator(
  deps: Deps,
  input: { email: string; name: string; orgId?: string; role?: string; languages?: string[] | null },
): Promise<CreatedUser> {
  const email = checkEmail(input.email);
  const name = checkName(input.name);
  const role: Role =
    input.role === undefined ? (input.orgId ? "translator" : "owner") : checkRole(input.role);
  const languages = checkLanguages(role, input.languages);
  return deps.storage.exclusive("people.setup", async () => {
    let orgIds: string[];
    if (input.orgId) {
      const org = await deps.storage.orgs.get(input.orgId);
      if (!org) throw notFound(`Organization ${input.orgId} not found`);
      orgIds = [org.id];
    } else {
      if ((await deps.storage.users.count()) > 0)
        throw conflict("Users exist already: name the organization (--org) and the role (--role)");
      let orgs = await deps.storage.orgs.list();
      if (orgs.length === 0) {
        const org = {
          id: newId(),
          name: "Default",
          maxTranslations: null,
          createdAt: deps.clock.now().toISOString(),
        };
        await deps.storage.orgs.create(org);
        orgs = [org];
      }
      orgIds = orgs.map((o) => o.id);
    }
    const now = deps.clock.now().toISOString();
    const user = {
      id: newId(),
      email,
      name,
      // Nobody knows this password: the person sets theirs through the reset link.
      passwordHash: await deps.passwords.hash(newSecret()),
      createdAt: now,
      updatedAt: now,
    };
    await deps.storage.users.create(user);
    for (const orgId of orgIds) {
      await deps.storage.memberships.create({ orgId, userId: user.id, role, languages, createdAt: now });
    }
    const { secret, expiresAt } = await createPasswordReset(deps, { kind: "operator" }, user.id);
    const view = await me(deps, user);
    return { user: view.user, memberships: view.memberships, secret, expiresAt };
  });
}

export async function inviteAsOperator(
  deps: Deps,
  orgId: string,
  input: { email: string; role: string; languages?: string[] | null },
): Promise<{ secret: string; invitation: InvitationView }> {
  return invite(deps, { kind: "operator", orgId }, input);
}

export async function resetPasswordAsOperator(
  deps: Deps,
  email: string,
): Promise<{ user: UserView; secret: string; expiresAt: string }> {
  const user = await deps.storage.users.findByEmail(checkEmail(email));
  if (!user) throw notFound(`No user has the email ${email}`);
  const { secret, expiresAt } = await createPasswordReset(deps, { kind: "operator" }, user.id);
  return { user: (await me(deps, user)).user, secret, expiresAt };
}
