import type { Sql } from "postgres";
import type { Session } from "../../core/people/types.ts";
import type { SessionStore } from "../../core/ports.ts";
import { type DbRow, iso, str, strOrNull } from "./convert.ts";

const toSession = (r: DbRow): Session => ({
  id: str(r.id),
  tokenHash: str(r.token_hash),
  userId: str(r.user_id),
  createdAt: iso(r.created_at),
  lastUsedAt: iso(r.last_used_at),
  idleExpiresAt: iso(r.idle_expires_at),
  absoluteExpiresAt: iso(r.absolute_expires_at),
  userAgent: strOrNull(r.user_agent),
});

export function createSessionStore(sql: Sql): SessionStore {
  return {
    async create(x) {
      await sql`
        INSERT INTO sessions (id, token_hash, user_id, created_at, last_used_at, idle_expires_at,
          absolute_expires_at, user_agent)
        VALUES (${x.id}, ${x.tokenHash}, ${x.userId}, ${x.createdAt}, ${x.lastUsedAt}, ${x.idleExpiresAt},
          ${x.absoluteExpiresAt}, ${x.userAgent})`;
    },
    async findByHash(tokenHash) {
      const [row] = await sql`SELECT * FROM sessions WHERE token_hash = ${tokenHash}`;
      return row ? toSession(row) : null;
    },
    async touch(id, lastUsedAt, idleExpiresAt) {
      const result = await sql`
        UPDATE sessions SET last_used_at = ${lastUsedAt}, idle_expires_at = ${idleExpiresAt} WHERE id = ${id}`;
      return result.count > 0;
    },
    async listByUser(userId, now) {
      const rows = await sql`
        SELECT * FROM sessions WHERE user_id = ${userId} AND idle_expires_at > ${now}
          AND absolute_expires_at > ${now}
        ORDER BY last_used_at DESC, id COLLATE "C"`;
      return rows.map(toSession);
    },
    async delete(id, userId) {
      const result = await sql`DELETE FROM sessions WHERE id = ${id} AND user_id = ${userId}`;
      return result.count > 0;
    },
    async deleteForUser(userId, keepId) {
      const result = await sql`DELETE FROM sessions WHERE user_id = ${userId} AND id <> ${keepId ?? ""}`;
      return result.count;
    },
    async deleteExpired(now) {
      const result = await sql`
        DELETE FROM sessions WHERE idle_expires_at <= ${now} OR absolute_expires_at <= ${now}`;
      return result.count;
    },
  };
}
