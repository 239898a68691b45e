import { conflict } from "../../core/errors.ts";
import type { User } from "../../core/people/types.ts";
import type { UserStore } from "../../core/ports.ts";
import { int, isUniqueViolation, type Statements } from "./statements.ts";

interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  name: r.name,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const taken = () => conflict("A user with that email already exists");

export function createSqliteUserStore(s: Statements): UserStore {
  const insert = s.prepare<never, [string, string, string, string, string, string, string]>(
    "INSERT INTO users (id, email, email_lower, name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const select = s.prepare<UserRow, [string]>("SELECT * FROM users WHERE id = ?");
  const selectByEmail = s.prepare<UserRow, [string]>("SELECT * FROM users WHERE email_lower = ?");
  const countAll = s.prepare<{ n: number | bigint }, []>("SELECT count(*) AS n FROM users");
  const updateProfile = s.prepare<UserRow, [string | null, string | null, string | null, string, string]>(
    `UPDATE users SET name = coalesce(?, name), email = coalesce(?, email),
       email_lower = coalesce(?, email_lower), updated_at = ? WHERE id = ? RETURNING *`,
  );
  const updateHash = s.prepare<never, [string, string, string]>(
    "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?",
  );
  return {
    async create(u) {
      try {
        insert.run(u.id, u.email, u.email.toLowerCase(), u.name, u.passwordHash, u.createdAt, u.updatedAt);
      } catch (e) {
        throw isUniqueViolation(e) ? taken() : e;
      }
    },
    async get(id) {
      const row = select.get(id);
      return row ? toUser(row) : null;
    },
    async findByEmail(email) {
      const row = selectByEmail.get(email.toLowerCase());
      return row ? toUser(row) : null;
    },
    async count() {
      return int(countAll.get()?.n ?? 0);
    },
    async update(id, change, now) {
      try {
        const row = updateProfile.get(
          change.name ?? null,
          change.email ?? null,
          change.email?.toLowerCase() ?? null,
          now,
          id,
        );
        return row ? toUser(row) : null;
      } catch (e) {
        throw isUniqueViolation(e) ? taken() : e;
      }
    },
    async setPasswordHash(id, passwordHash, now) {
      return updateHash.run(passwordHash, now, id).changes > 0;
    },
  };
}
