import type { Role } from "../principal.ts";

/** A person who signs in to the workspace. The password hash never leaves the core. */
export interface User {
  id: string;
  /** As the person typed it; compared case-insensitively (stores keep a lower-case form). */
  email: string;
  name: string;
  /** argon2id, PHC string format. */
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
}

/** A user's place in one organization. */
export interface Membership {
  orgId: string;
  userId: string;
  role: Role;
  /** Languages a reviewer or translator may write; null means every language. */
  languages: string[] | null;
  createdAt: string;
}

/** A membership with the person it belongs to, as member listings show it. */
export interface Member extends Membership {
  email: string;
  name: string;
}

/** The changes a membership can take; absent fields stay. */
export interface MembershipChange {
  role?: Role;
  languages?: string[] | null;
}

/** What an atomic membership change did: the organization must always keep an owner. */
export type MembershipOutcome =
  | { ok: true; membership: Membership }
  | { ok: false; reason: "not_found" | "last_owner" };

/** A signed-in browser. The token itself is never stored, only its SHA-256. */
export interface Session {
  id: string;
  tokenHash: string;
  userId: string;
  createdAt: string;
  lastUsedAt: string;
  /** Ends 14 days after the last use unless used again (sliding). */
  idleExpiresAt: string;
  /** Ends 30 days after sign-in whatever happens. */
  absoluteExpiresAt: string;
  /** What the browser said it was at sign-in (shown in the session list); may be null. */
  userAgent: string | null;
}

export const ONE_TIME_KINDS = ["setup", "invitation", "reset"] as const;
export type OneTimeKind = (typeof ONE_TIME_KINDS)[number];

/** A one-time link's token: setup of the first owner, an invitation, or a password reset. */
export interface OneTimeToken {
  id: string;
  tokenHash: string;
  kind: OneTimeKind;
  /** Invitations: the organization joined. */
  orgId: string | null;
  /** Invitations: the invited address. */
  email: string | null;
  /** Invitations: the role given. */
  role: Role | null;
  /** Invitations: the languages given (null: every language). */
  languages: string[] | null;
  /** Resets: the user whose password is set. */
  userId: string | null;
  /** Who made it (a user id); null for the server or the operator. */
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
  /** When it was used (or revoked); null while it may still be used. */
  usedAt: string | null;
}
