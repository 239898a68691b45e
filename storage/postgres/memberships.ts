import type { Sql, TransactionSql } from "postgres";
import { conflict } from "../../core/errors.ts";
import type { Membership, MembershipOutcome } from "../../core/people/types.ts";
import type { MembershipStore } from "../../core/ports.ts";
import type { Role } from "../../core/principal.ts";
import { type DbRow, iso, isUniqueViolation, str, strings } from "./convert.ts";

const toMembership = (r: DbRow): Membership => ({
  orgId: str(r.org_id),
  userId: str(r.user_id),
  role: str(r.role) as Role,
  languages: r.languages === null || r.languages === undefined ? null : strings(r.languages),
  createdAt: iso(r.created_at),
});

/**
 * Locks the organization's owner rows, then reads the member: two transactions that each demote
 * or remove an owner queue on these locks, and the second sees the first's result.
 */
async function lockOwnersAndRead(tx: TransactionSql, orgId: string, userId: string) {
  const owners = await tx`
    SELECT user_id FROM memberships WHERE org_id = ${orgId} AND role = 'owner' FOR UPDATE`;
  const [row] =
    await tx`SELECT * FROM memberships WHERE org_id = ${orgId} AND user_id = ${userId} FOR UPDATE`;
  return { ownerCount: owners.length, row };
}

export function createMembershipStore(sql: Sql): MembershipStore {
  return {
    async create(m) {
      try {
        await sql`
          INSERT INTO memberships (org_id, user_id, role, languages, created_at)
          VALUES (${m.orgId}, ${m.userId}, ${m.role},
            ${m.languages === null ? null : sql.array(m.languages)}::text[], ${m.createdAt})`;
      } catch (e) {
        throw isUniqueViolation(e) ? conflict("That user is already a member") : e;
      }
    },
    async get(orgId, userId) {
      const [row] = await sql`SELECT * FROM memberships WHERE org_id = ${orgId} AND user_id = ${userId}`;
      return row ? toMembership(row) : null;
    },
    async listByUser(userId) {
      const rows = await sql`SELECT * FROM memberships WHERE user_id = ${userId} ORDER BY org_id COLLATE "C"`;
      return rows.map(toMembership);
    },
    async listByOrg(orgId) {
      const rows = await sql`
        SELECT m.*, u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.org_id = ${orgId} ORDER BY u.email_lower COLLATE "C", u.id COLLATE "C"`;
      return rows.map((r) => ({ ...toMembership(r), email: str(r.email), name: str(r.name) }));
    },
    async update(orgId, userId, change) {
      return sql.begin(async (tx): Promise<MembershipOutcome> => {
        const { ownerCount, row } = await lockOwnersAndRead(tx, orgId, userId);
        if (!row) return { ok: false, reason: "not_found" };
        const current = toMembership(row);
        const next: Membership = {
          ...current,
          role: change.role ?? current.role,
          languages: change.languages === undefined ? current.languages : change.languages,
        };
        if (current.role === "owner" && next.role !== "owner" && ownerCount <= 1)
          return { ok: false, reason: "last_owner" };
        await tx`
          UPDATE memberships SET role = ${next.role},
            languages = ${next.languages === null ? null : tx.array(next.languages)}::text[]
          WHERE org_id = ${orgId} AND user_id = ${userId}`;
        return { ok: true, membership: next };
      }) as Promise<MembershipOutcome>;
    },
    async remove(orgId, userId) {
      return sql.begin(async (tx): Promise<MembershipOutcome> => {
        const { ownerCount, row } = await lockOwnersAndRead(tx, orgId, userId);
        if (!row) return { ok: false, reason: "not_found" };
        const current = toMembership(row);
        if (current.role === "owner" && ownerCount <= 1) return { ok: false, reason: "last_owner" };
        await tx`DELETE FROM memberships WHERE org_id = ${orgId} AND user_id = ${userId}`;
        return { ok: true, membership: current };
      }) as Promise<MembershipOutcome>;
    },
  };
}
