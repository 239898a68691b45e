import type { Database } from "bun:sqlite";
import { conflict } from "../../core/errors.ts";
import type { Member, Membership, MembershipChange, MembershipOutcome } from "../../core/people/types.ts";
import type { MembershipStore } from "../../core/ports.ts";
import type { Role } from "../../core/principal.ts";
import { int, isUniqueViolation, type Statements } from "./statements.ts";

interface MembershipRow {
  org_id: string;
  user_id: string;
  role: string;
  languages: string | null;
  created_at: string;
}

const toMembership = (r: MembershipRow): Membership => ({
  orgId: r.org_id,
  userId: r.user_id,
  role: r.role as Role,
  languages: r.languages === null ? null : (JSON.parse(r.languages) as string[]),
  createdAt: r.created_at,
});

const languagesText = (languages: string[] | null) => (languages === null ? null : JSON.stringify(languages));

export function createSqliteMembershipStore(db: Database, s: Statements): MembershipStore {
  const insert = s.prepare<never, [string, string, string, string | null, string]>(
    "INSERT INTO memberships (org_id, user_id, role, languages, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const select = s.prepare<MembershipRow, [string, string]>(
    "SELECT * FROM memberships WHERE org_id = ? AND user_id = ?",
  );
  const byUser = s.prepare<MembershipRow, [string]>(
    "SELECT * FROM memberships WHERE user_id = ? ORDER BY org_id",
  );
  const byOrg = s.prepare<MembershipRow & { email: string; name: string }, [string]>(
    `SELECT m.*, u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = ? ORDER BY u.email_lower, u.id`,
  );
  const owners = s.prepare<{ n: number | bigint }, [string]>(
    "SELECT count(*) AS n FROM memberships WHERE org_id = ? AND role = 'owner'",
  );
  const write = s.prepare<never, [string, string | null, string, string]>(
    "UPDATE memberships SET role = ?, languages = ? WHERE org_id = ? AND user_id = ?",
  );
  const drop = s.prepare<never, [string, string]>("DELETE FROM memberships WHERE org_id = ? AND user_id = ?");

  const leavesNoOwner = (m: MembershipRow, nextRole: string | null) =>
    m.role === "owner" && nextRole !== "owner" && int(owners.get(m.org_id)?.n ?? 0) <= 1;

  const updateTx = db.transaction(
    (orgId: string, userId: string, change: MembershipChange): MembershipOutcome => {
      const row = select.get(orgId, userId);
      if (!row) return { ok: false, reason: "not_found" };
      const current = toMembership(row);
      const next: Membership = {
        ...current,
        role: change.role ?? current.role,
        languages: change.languages === undefined ? current.languages : change.languages,
      };
      if (leavesNoOwner(row, next.role)) return { ok: false, reason: "last_owner" };
      write.run(next.role, languagesText(next.languages), orgId, userId);
      return { ok: true, membership: next };
    },
  );
  const removeTx = db.transaction((orgId: string, userId: string): MembershipOutcome => {
    const row = select.get(orgId, userId);
    if (!row) return { ok: false, reason: "not_found" };
    if (leavesNoOwner(row, null)) return { ok: false, reason: "last_owner" };
    drop.run(orgId, userId);
    return { ok: true, membership: toMembership(row) };
  });

  return {
    async create(m) {
      try {
        insert.run(m.orgId, m.userId, m.role, languagesText(m.languages), m.createdAt);
      } catch (e) {
        throw isUniqueViolation(e) ? conflict("That user is already a member") : e;
      }
    },
    async get(orgId, userId) {
      const row = select.get(orgId, userId);
      return row ? toMembership(row) : null;
    },
    async listByUser(userId) {
      return byUser.all(userId).map(toMembership);
    },
    async listByOrg(orgId) {
      return byOrg.all(orgId).map((r): Member => ({ ...toMembership(r), email: r.email, name: r.name }));
    },
    // IMMEDIATE: the owner count is read under the write lock, so two demotions cannot both pass.
    async update(orgId, userId, change) {
      return updateTx.immediate(orgId, userId, change);
    },
    async remove(orgId, userId) {
      return removeTx.immediate(orgId, userId);
    },
  };
}
