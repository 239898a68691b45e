import type { Deps } from "../context.ts";
import { conflict, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { after, DAY_MS, HOUR_MS, newSecret, SECRET_PATTERN } from "./secrets.ts";
import type { OneTimeKind, OneTimeToken, User } from "./types.ts";
import { checkName, type NewUser, prepareUser } from "./users.ts";

export const SETUP_LINK_MS = 24 * HOUR_MS;
export const INVITATION_MS = 7 * DAY_MS;
export const RESET_LINK_MS = 24 * HOUR_MS;

/** The same 404 for a token that never existed, was used, or expired: nothing to tell apart. */
export const linkInvalid = () => notFound("This link is invalid, already used or expired");

/** Stores a one-time token of `kind`; the secret to put in the link (shown once, never stored). */
export async function issueOneTimeToken(
  deps: Deps,
  kind: OneTimeKind,
  lifetimeMs: number,
  fields: Partial<Pick<OneTimeToken, "orgId" | "email" | "role" | "languages" | "userId" | "createdBy">> = {},
): Promise<{ secret: string; token: OneTimeToken }> {
  const secret = newSecret();
  const now = deps.clock.now();
  const token: OneTimeToken = {
    id: newId(),
    tokenHash: deps.hasher.sha256Hex(secret),
    kind,
    orgId: fields.orgId ?? null,
    email: fields.email ?? null,
    role: fields.role ?? null,
    languages: fields.languages ?? null,
    userId: fields.userId ?? null,
    createdBy: fields.createdBy ?? null,
    createdAt: now.toISOString(),
    expiresAt: after(now, lifetimeMs),
    usedAt: null,
  };
  await deps.storage.oneTimeTokens.create(token);
  return { secret, token };
}

/** Takes a one-time token for good: the token, or the 404 for an unknown, used or expired one. */
export async function consumeOneTimeToken(
  deps: Deps,
  secret: string,
  kind: OneTimeKind,
): Promise<OneTimeToken> {
  if (!SECRET_PATTERN.test(secret)) throw linkInvalid();
  const token = await deps.storage.oneTimeTokens.consume(
    deps.hasher.sha256Hex(secret),
    kind,
    deps.clock.now().toISOString(),
  );
  if (!token) throw linkInvalid();
  return token;
}

/** While the store has no user: a new setup token (valid 24 hours); otherwise null. */
export async function createSetupToken(deps: Deps): Promise<string | null> {
  if ((await deps.storage.users.count()) > 0) return null;
  return (await issueOneTimeToken(deps, "setup", SETUP_LINK_MS)).secret;
}

export interface SetupRequest extends NewUser {
  token: string;
  /** Names the organization created when the store has none. Default: "Default". */
  organizationName?: string;
}

/**
 * Creates the first user, owner of every organization of the store (one is created when there is
 * none). Refused (409) once any user exists, whichever setup link is used.
 */
export async function completeSetup(deps: Deps, req: SetupRequest): Promise<User> {
  const user = await prepareUser(deps, req);
  const orgName = req.organizationName === undefined ? "Default" : checkName(req.organizationName);
  return deps.storage.exclusive("people.setup", async () => {
    if ((await deps.storage.users.count()) > 0) throw conflict("Setup is done: a user exists already");
    await consumeOneTimeToken(deps, req.token, "setup");
    await deps.storage.users.create(user);
    const now = deps.clock.now().toISOString();
    let orgs = await deps.storage.orgs.list();
    if (orgs.length === 0) {
      const org = { id: newId(), name: orgName, maxTranslations: null, createdAt: now };
      await deps.storage.orgs.create(org);
      orgs = [org];
    }
    for (const org of orgs) {
      await deps.storage.memberships.create({
        orgId: org.id,
        userId: user.id,
        role: "owner",
        languages: null,
        createdAt: now,
      });
    }
    return user;
  });
}
