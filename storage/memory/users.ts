import { conflict } from "../../core/errors.ts";
import type { User } from "../../core/people/types.ts";
import type { UserStore } from "../../core/ports.ts";

export type UserTable = Map<string, User>;

const copy = (u: User): User => ({ ...u });

export function createMemoryUserStore(users: UserTable): UserStore {
  const byEmail = (email: string, exceptId?: string) => {
    const lower = email.toLowerCase();
    for (const u of users.values()) if (u.email.toLowerCase() === lower && u.id !== exceptId) return u;
    return null;
  };
  return {
    async create(user) {
      if (byEmail(user.email)) throw conflict("A user with that email already exists");
      users.set(user.id, copy(user));
    },
    async get(id) {
      const u = users.get(id);
      return u ? copy(u) : null;
    },
    async findByEmail(email) {
      const u = byEmail(email);
      return u ? copy(u) : null;
    },
    async count() {
      return users.size;
    },
    async update(id, change, now) {
      const u = users.get(id);
      if (!u) return null;
      if (change.email !== undefined && byEmail(change.email, id))
        throw conflict("A user with that email already exists");
      const next = { ...u, name: change.name ?? u.name, email: change.email ?? u.email, updatedAt: now };
      users.set(id, next);
      return copy(next);
    },
    async setPasswordHash(id, passwordHash, now) {
      const u = users.get(id);
      if (!u) return false;
      users.set(id, { ...u, passwordHash, updatedAt: now });
      return true;
    },
  };
}
