import type { Sql } from "postgres";
import { conflict } from "../../core/errors.ts";
import type { User } from "../../core/people/types.ts";
import type { UserStore } from "../../core/ports.ts";
import { type DbRow, iso, isUniqueViolation, num, str } from "./convert.ts";

const toUser = (r: DbRow): User => ({
  id: str(r.id),
  email: str(r.email),
  name: str(r.name),
  passwordHash: str(r.password_hash),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

const taken = () => conflict("A user with that email already exists");

export function createUserStore(sql: Sql): UserStore {
  return {
    async create(u) {
      try {
        await sql`
          INSERT INTO users (id, email, email_lower, name, password_hash, created_at, updated_at)
          VALUES (${u.id}, ${u.email}, ${u.email.toLowerCase()}, ${u.name}, ${u.passwordHash},
            ${u.createdAt}, ${u.updatedAt})`;
      } catch (e) {
        throw isUniqueViolation(e) ? taken() : e;
      }
    },
    async get(id) {
      const [row] = await sql`SELECT * FROM users WHERE id = ${id}`;
      return row ? toUser(row) : null;
    },
    async findByEmail(email) {
      const [row] = await sql`SELECT * FROM users WHERE email_lower = ${email.toLowerCase()}`;
      return row ? toUser(row) : null;
    },
    async count() {
      const [row] = await sql`SELECT count(*) AS n FROM users`;
      return num(row?.n ?? 0);
    },
    async update(id, change, now) {
      try {
        const [row] = await sql`
          UPDATE users SET name = coalesce(${change.name ?? null}::text, name),
            email = coalesce(${change.email ?? null}::text, email),
            email_lower = coalesce(${change.email?.toLowerCase() ?? null}::text, email_lower),
            updated_at = ${now}
          WHERE id = ${id} RETURNING *`;
        return row ? toUser(row) : null;
      } catch (e) {
        throw isUniqueViolation(e) ? taken() : e;
      }
    },
    async setPasswordHash(id, passwordHash, now) {
      const result = await sql`
        UPDATE users SET password_hash = ${passwordHash}, updated_at = ${now} WHERE id = ${id}`;
      return result.count > 0;
    },
  };
}
