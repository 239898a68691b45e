import type { UserPrincipal } from "../../core/index.ts";

/** An organization's owner acting on its projects, for storage tests that call the records API. */
export const ownerOf = (orgId: string): UserPrincipal => ({
  kind: "user",
  orgId,
  actor: { kind: "user", userId: "u-owner", name: "Owner" },
  userId: "u-owner",
  role: "owner",
  languages: null,
});
