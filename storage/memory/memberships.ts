import { conflict } from "../../core/errors.ts";
import type { Member, Membership, MembershipOutcome } from "../../core/people/types.ts";
import type { MembershipStore } from "../../core/ports.ts";
import type { UserTable } from "./users.ts";

const copy = (m: Membership): Membership => ({ ...m, languages: m.languages ? [...m.languages] : null });
const keyOf = (orgId: string, userId: string) => `${orgId}\u0000${userId}`;

export function createMemoryMembershipStore(users: UserTable): MembershipStore {
  const memberships = new Map<string, Membership>();
  const owners = (orgId: string) =>
    [...memberships.values()].filter((m) => m.orgId === orgId && m.role === "owner").length;
  return {
    async create(membership) {
      const key = keyOf(membership.orgId, membership.userId);
      if (memberships.has(key)) throw conflict("That user is already a member");
      memberships.set(key, copy(membership));
    },
    async get(orgId, userId) {
      const m = memberships.get(keyOf(orgId, userId));
      return m ? copy(m) : null;
    },
    async listByUser(userId) {
      return [...memberships.values()]
        .filter((m) => m.userId === userId)
        .sort((a, b) => (a.orgId < b.orgId ? -1 : 1))
        .map(copy);
    },
    async listByOrg(orgId) {
      const members: Member[] = [];
      for (const m of memberships.values()) {
        const u = users.get(m.userId);
        if (m.orgId === orgId && u) members.push({ ...copy(m), email: u.email, name: u.name });
      }
      const order = (m: Member) => `${m.email.toLowerCase()}\u0000${m.userId}`;
      return members.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
    },
    async update(orgId, userId, change): Promise<MembershipOutcome> {
      const key = keyOf(orgId, userId);
      const m = memberships.get(key);
      if (!m) return { ok: false, reason: "not_found" };
      const next: Membership = {
        ...m,
        role: change.role ?? m.role,
        languages: change.languages === undefined ? m.languages : change.languages,
      };
      if (m.role === "owner" && next.role !== "owner" && owners(orgId) <= 1)
        return { ok: false, reason: "last_owner" };
      memberships.set(key, copy(next));
      return { ok: true, membership: copy(next) };
    },
    async remove(orgId, userId): Promise<MembershipOutcome> {
      const key = keyOf(orgId, userId);
      const m = memberships.get(key);
      if (!m) return { ok: false, reason: "not_found" };
      if (m.role === "owner" && owners(orgId) <= 1) return { ok: false, reason: "last_owner" };
      memberships.delete(key);
      return { ok: true, membership: copy(m) };
    },
  };
}
