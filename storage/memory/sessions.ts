import type { Session } from "../../core/people/types.ts";
import type { SessionStore } from "../../core/ports.ts";

const copy = (s: Session): Session => ({ ...s });
const live = (s: Session, now: string) => s.idleExpiresAt > now && s.absoluteExpiresAt > now;

export function createMemorySessionStore(): SessionStore {
  const sessions = new Map<string, Session>();
  return {
    async create(session) {
      sessions.set(session.id, copy(session));
    },
    async findByHash(tokenHash) {
      for (const s of sessions.values()) if (s.tokenHash === tokenHash) return copy(s);
      return null;
    },
    async touch(id, lastUsedAt, idleExpiresAt) {
      const s = sessions.get(id);
      if (!s) return false;
      sessions.set(id, { ...s, lastUsedAt, idleExpiresAt });
      return true;
    },
    async listByUser(userId, now) {
      return [...sessions.values()]
        .filter((s) => s.userId === userId && live(s, now))
        .sort((a, b) =>
          a.lastUsedAt > b.lastUsedAt ? -1 : a.lastUsedAt < b.lastUsedAt ? 1 : a.id < b.id ? -1 : 1,
        )
        .map(copy);
    },
    async delete(id, userId) {
      const s = sessions.get(id);
      if (!s || s.userId !== userId) return false;
      return sessions.delete(id);
    },
    async deleteForUser(userId, keepId) {
      let n = 0;
      for (const [id, s] of sessions) if (s.userId === userId && id !== keepId && sessions.delete(id)) n++;
      return n;
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [id, s] of sessions) if (!live(s, now) && sessions.delete(id)) n++;
      return n;
    },
  };
}
