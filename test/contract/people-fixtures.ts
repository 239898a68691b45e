import type { Membership, OneTimeToken, Session, User } from "../../core/people/types.ts";
import type { Storage } from "../../core/ports.ts";
import { at, id, org } from "./fixtures.ts";

export const user = (over: Partial<User> = {}): User => ({
  id: id(),
  email: `Person.${id().slice(0, 8)}@Example.com`,
  name: "Ana",
  passwordHash: "$argon2id$v=19$m=1024,t=1,p=1$c2FsdA$aGFzaA",
  createdAt: at(0),
  updatedAt: at(0),
  ...over,
});

export const session = (userId: string, over: Partial<Session> = {}): Session => ({
  id: id(),
  tokenHash: `${id().replaceAll("-", "")}${id().replaceAll("-", "")}`,
  userId,
  createdAt: at(0),
  lastUsedAt: at(0),
  idleExpiresAt: at(100),
  absoluteExpiresAt: at(200),
  userAgent: "Firefox",
  ...over,
});

export const oneTimeToken = (over: Partial<OneTimeToken> = {}): OneTimeToken => ({
  id: id(),
  tokenHash: `${id().replaceAll("-", "")}${id().replaceAll("-", "")}`,
  kind: "invitation",
  orgId: null,
  email: null,
  role: null,
  languages: null,
  userId: null,
  createdBy: null,
  createdAt: at(0),
  expiresAt: at(60),
  usedAt: null,
  ...over,
});

/** An organization and a user in the store, for the ports that refer to both. */
export async function seedOrgAndUser(storage: Storage, over: Partial<User> = {}) {
  const o = org();
  await storage.orgs.create(o);
  const u = user(over);
  await storage.users.create(u);
  return { orgId: o.id, user: u };
}

export const membership = (orgId: string, userId: string, over: Partial<Membership> = {}): Membership => ({
  orgId,
  userId,
  role: "translator",
  languages: null,
  createdAt: at(0),
  ...over,
});
