import type { Sql } from "postgres";
import type { OneTimeKind, OneTimeToken } from "../../core/people/types.ts";
import type { OneTimeTokenStore } from "../../core/ports.ts";
import type { Role } from "../../core/principal.ts";
import { type DbRow, iso, isoOrNull, str, strings, strOrNull } from "./convert.ts";

const toToken = (r: DbRow): OneTimeToken => ({
  id: str(r.id),
  tokenHash: str(r.token_hash),
  kind: str(r.kind) as OneTimeKind,
  orgId: strOrNull(r.org_id),
  email: strOrNull(r.email),
  role: strOrNull(r.role) as Role | null,
  languages: r.languages === null || r.languages === undefined ? null : strings(r.languages),
  userId: strOrNull(r.user_id),
  createdBy: strOrNull(r.created_by),
  createdAt: iso(r.created_at),
  expiresAt: iso(r.expires_at),
  usedAt: isoOrNull(r.used_at),
});

export function createOneTimeTokenStore(sql: Sql): OneTimeTokenStore {
  return {
    async create(t) {
      await sql`
        INSERT INTO one_time_tokens (id, token_hash, kind, org_id, email, role, languages, user_id,
          created_by, created_at, expires_at, used_at)
        VALUES (${t.id}, ${t.tokenHash}, ${t.kind}, ${t.orgId}, ${t.email}, ${t.role},
          ${t.languages === null ? null : sql.array(t.languages)}::text[], ${t.userId}, ${t.createdBy},
          ${t.createdAt}, ${t.expiresAt}, ${t.usedAt})`;
    },
    async findByHash(tokenHash) {
      const [row] = await sql`SELECT * FROM one_time_tokens WHERE token_hash = ${tokenHash}`;
      return row ? toToken(row) : null;
    },
    async get(id) {
      const [row] = await sql`SELECT * FROM one_time_tokens WHERE id = ${id}`;
      return row ? toToken(row) : null;
    },
    // One statement: the row lock makes a racing second UPDATE see used_at set and match nothing.
    async consume(tokenHash, kind, now) {
      const [row] = await sql`
        UPDATE one_time_tokens SET used_at = ${now}
        WHERE token_hash = ${tokenHash} AND kind = ${kind} AND used_at IS NULL AND expires_at > ${now}
        RETURNING *`;
      return row ? { ...toToken(row), usedAt: null } : null;
    },
    async listInvitations(orgId, now) {
      const rows = await sql`
        SELECT * FROM one_time_tokens WHERE kind = 'invitation' AND org_id = ${orgId}
          AND used_at IS NULL AND expires_at > ${now}
        ORDER BY created_at DESC, id COLLATE "C" DESC`;
      return rows.map(toToken);
    },
    async revoke(id, now) {
      const result = await sql`
        UPDATE one_time_tokens SET used_at = ${now} WHERE id = ${id} AND used_at IS NULL`;
      return result.count > 0;
    },
  };
}
