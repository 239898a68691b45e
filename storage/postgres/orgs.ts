import type { Sql } from "postgres";
import type { OrganizationStore } from "../../core/ports.ts";
import type { Organization } from "../../core/types.ts";
import { type DbRow, iso, numOrNull, str } from "./convert.ts";
import type { RowCache } from "./row-cache.ts";

const toOrg = (r: DbRow): Organization => ({
  id: str(r.id),
  name: str(r.name),
  maxTranslations: numOrNull(r.max_translations),
  createdAt: iso(r.created_at),
});

export function createOrgStore(sql: Sql, cache: RowCache): OrganizationStore {
  return {
    async create(org) {
      await sql`
        INSERT INTO organizations (id, name, max_translations, created_at)
        VALUES (${org.id}, ${org.name}, ${org.maxTranslations}, ${org.createdAt})`;
    },
    async get(id) {
      const load = async () => {
        const [row] = await sql`SELECT * FROM organizations WHERE id = ${id}`;
        return row ? toOrg(row) : null;
      };
      const org = await cache.read("organizations", id, load, (o) => o.id);
      return org ? { ...org } : null;
    },
    async list() {
      // organizations.name has the database's collation; "C" sorts by code point.
      const rows = await sql`SELECT * FROM organizations ORDER BY name COLLATE "C", id`;
      return rows.map(toOrg);
    },
    async setQuota(id, maxTranslations) {
      const [row] = await sql`
        UPDATE organizations SET max_translations = ${maxTranslations} WHERE id = ${id} RETURNING *`;
      cache.drop("organizations", id);
      return row ? toOrg(row) : null;
    },
  };
}
