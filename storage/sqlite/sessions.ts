import type { Session } from "../../core/people/types.ts";
import type { SessionStore } from "../../core/ports.ts";
import type { Statements } from "./statements.ts";

interface SessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  last_used_at: string;
  idle_expires_at: string;
  absolute_expires_at: string;
  user_agent: string | null;
}

const toSession = (r: SessionRow): Session => ({
  id: r.id,
  tokenHash: r.token_hash,
  userId: r.user_id,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  idleExpiresAt: r.idle_expires_at,
  absoluteExpiresAt: r.absolute_expires_at,
  userAgent: r.user_agent,
});

export function createSqliteSessionStore(s: Statements): SessionStore {
  const insert = s.prepare<never, [string, string, string, string, string, string, string, string | null]>(
    `INSERT INTO sessions (id, token_hash, user_id, created_at, last_used_at, idle_expires_at,
       absolute_expires_at, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byHash = s.prepare<SessionRow, [string]>("SELECT * FROM sessions WHERE token_hash = ?");
  const touch = s.prepare<never, [string, string, string]>(
    "UPDATE sessions SET last_used_at = ?, idle_expires_at = ? WHERE id = ?",
  );
  const byUser = s.prepare<SessionRow, [string, string, string]>(
    `SELECT * FROM sessions WHERE user_id = ? AND idle_expires_at > ? AND absolute_expires_at > ?
     ORDER BY last_used_at DESC, id`,
  );
  const drop = s.prepare<never, [string, string]>("DELETE FROM sessions WHERE id = ? AND user_id = ?");
  const dropForUser = s.prepare<never, [string, string]>(
    "DELETE FROM sessions WHERE user_id = ? AND id <> ?",
  );
  const dropExpired = s.prepare<never, [string, string]>(
    "DELETE FROM sessions WHERE idle_expires_at <= ? OR absolute_expires_at <= ?",
  );
  return {
    async create(x) {
      insert.run(
        x.id,
        x.tokenHash,
        x.userId,
        x.createdAt,
        x.lastUsedAt,
        x.idleExpiresAt,
        x.absoluteExpiresAt,
        x.userAgent,
      );
    },
    async findByHash(tokenHash) {
      const row = byHash.get(tokenHash);
      return row ? toSession(row) : null;
    },
    async touch(id, lastUsedAt, idleExpiresAt) {
      return touch.run(lastUsedAt, idleExpiresAt, id).changes > 0;
    },
    async listByUser(userId, now) {
      return byUser.all(userId, now, now).map(toSession);
    },
    async delete(id, userId) {
      return drop.run(id, userId).changes > 0;
    },
    async deleteForUser(userId, keepId) {
      return dropForUser.run(userId, keepId ?? "").changes;
    },
    async deleteExpired(now) {
      return dropExpired.run(now, now).changes;
    },
  };
}
