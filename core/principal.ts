import type { ApiKey, Scope } from "./types.ts";

/** Who did something: what history entries and logs name. */
export type Actor =
  | { kind: "api_key"; keyId: string; name: string }
  | { kind: "user"; userId: string; name: string }
  /** The `parlance admin` command line, run by whoever operates the instance. */
  | { kind: "operator" }
  /** The application that embeds Parlance, acting on its own authority. */
  | { kind: "app"; name: string };

/** A caller holding an API key or an access token: it may do what its scopes name, literally. */
export interface KeyPrincipal {
  kind: "key";
  orgId: string;
  actor: Actor;
  key: ApiKey;
  /** The credential's scopes: an access token may carry fewer than its key. */
  scopes: Scope[];
}

/**
 * A caller the host trusts with every action in one organization: the embedding application, or the
 * operator's command line. It is never created from a request.
 */
export interface TrustedPrincipal {
  kind: "trusted";
  orgId: string;
  actor: Actor;
}

/** A member's role in an organization, from most to least powerful. */
export const ROLES = ["owner", "admin", "developer", "reviewer", "translator"] as const;
export type Role = (typeof ROLES)[number];

/** A person signed in to the workspace, acting in one organization they are a member of. */
export interface UserPrincipal {
  kind: "user";
  orgId: string;
  actor: Actor;
  userId: string;
  role: Role;
  /**
   * The languages a reviewer or translator may write; null means every language. Outside them the
   * member reads but does not write. Ignored for the other roles.
   */
  languages: string[] | null;
}

/** An authenticated caller inside one organization: who it is and what it may do. */
export type Principal = KeyPrincipal | UserPrincipal | TrustedPrincipal;

export function keyPrincipal(key: ApiKey, scopes: Scope[]): KeyPrincipal {
  return {
    kind: "key",
    orgId: key.orgId,
    actor: { kind: "api_key", keyId: key.id, name: key.name },
    key,
    scopes,
  };
}

/** The host application acting in `orgId` under `name` (what history shows as the author). */
export const appPrincipal = (orgId: string, name = "app"): TrustedPrincipal => ({
  kind: "trusted",
  orgId,
  actor: { kind: "app", name },
});

/** The operator's command line acting in `orgId`. */
export const operatorPrincipal = (orgId: string): TrustedPrincipal => ({
  kind: "trusted",
  orgId,
  actor: { kind: "operator" },
});
