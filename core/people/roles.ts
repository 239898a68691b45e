import { authorize } from "../authorization.ts";
import { invalid } from "../errors.ts";
import { isLocale } from "../locale.ts";
import { ROLES, type Role, type UserPrincipal } from "../principal.ts";

/** The roles whose writing may be limited to a set of languages. */
const LIMITABLE: ReadonlySet<Role> = new Set(["reviewer", "translator"]);

export function checkRole(role: string): Role {
  if (!(ROLES as readonly string[]).includes(role)) throw invalid(`role must be one of ${ROLES.join(", ")}`);
  return role as Role;
}

/** A language limit as stored: null (every language) for roles that cannot be limited. */
export function checkLanguages(role: Role, languages: readonly string[] | null | undefined): string[] | null {
  if (!LIMITABLE.has(role) || languages === null || languages === undefined) return null;
  for (const l of languages) {
    if (!isLocale(l))
      throw invalid(`languages must be locale codes such as fr or pt-BR (got ${JSON.stringify(l)})`);
  }
  if (languages.length === 0)
    throw invalid("languages must name at least one language, or be null for every language");
  return [...new Set(languages)];
}

/**
 * members.manage, plus owners.manage when an owner is concerned (making, unmaking, removing,
 * resetting or inviting one): an admin never gains power over the owners.
 */
export function authorizeMemberChange(
  principal: UserPrincipal,
  ...rolesConcerned: (Role | null | undefined)[]
) {
  authorize(principal, "members.manage");
  if (rolesConcerned.includes("owner")) authorize(principal, "owners.manage");
}
