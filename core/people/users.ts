import type { Deps } from "../context.ts";
import { invalid } from "../errors.ts";
import { newId } from "../ids.ts";
import { requireNameLength, uncarriableCharacter } from "../text.ts";
import { checkNewPassword } from "./passwords.ts";
import type { User } from "./types.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A trimmed email address, or 400. */
export function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) throw invalid("email must be an email address");
  const refused = uncarriableCharacter(trimmed);
  if (refused) throw invalid(`email contains ${refused}, which no store can carry`);
  return trimmed;
}

/** A trimmed display name of 1 to 100 characters, or 400. */
export function checkName(name: string): string {
  const trimmed = name.trim();
  requireNameLength(trimmed);
  const refused = uncarriableCharacter(trimmed);
  if (refused) throw invalid(`name contains ${refused}, which no store can carry`);
  return trimmed;
}

export interface NewUser {
  email: string;
  name: string;
  password: string;
}

/** What a user looks like outside the core: never the hash. */
export interface UserView {
  id: string;
  email: string;
  name: string;
  createdAt: string;
}

export const userView = (u: User): UserView => ({
  id: u.id,
  email: u.email,
  name: u.name,
  createdAt: u.createdAt,
});

/** Validates and hashes; the user is not stored yet (the caller stores it with what goes with it). */
export async function prepareUser(deps: Deps, input: NewUser): Promise<User> {
  const email = checkEmail(input.email);
  const name = checkName(input.name);
  checkNewPassword(input.password);
  const now = deps.clock.now().toISOString();
  return {
    id: newId(),
    email,
    name,
    passwordHash: await deps.passwords.hash(input.password),
    createdAt: now,
    updatedAt: now,
  };
}
