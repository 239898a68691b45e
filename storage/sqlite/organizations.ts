import type { OrganizationStore } from "../../core/ports.ts";
import type { Organization } from "../../core/types.ts";
import type { ReadCache } from "./read-cache.ts";
import { int, type Statements } from "./statements.ts";

interface OrgRow {
  id: string;
  name: string;
  max_translations: number | bigint | null;
  created_at: string;
}

const toOrg = (r: OrgRow): Organization => ({
  id: r.id,
  name: r.name,
  maxTranslations: r.max_translations === null ? null : int(r.max_translations),
  createdAt: r.created_at,
});

export function createSqliteOrganizationStore(s: Statements, cache: ReadCache): OrganizationStore {
  const byId = cache.space<Organization>();
  const insert = s.prepare<never, [string, string, number | null, string]>(
    "INSERT INTO organizations (id, name, max_translations, created_at) VALUES (?, ?, ?, ?)",
  );
  const select = s.prepare<OrgRow, [string]>("SELECT * FROM organizations WHERE id = ?");
  // SQLite compares text as bytes (BINARY): UTF-8 byte order is code-point order.
  const selectAll = s.prepare<OrgRow, []>("SELECT * FROM organizations ORDER BY name, id");
  const updateQuota = s.prepare<OrgRow, [number | null, string]>(
    "UPDATE organizations SET max_translations = ? WHERE id = ? RETURNING *",
  );
  return {
    async create(org) {
      cache.clear();
      insert.run(org.id, org.name, org.maxTranslations, org.createdAt);
    },
    async get(id) {
      const org = byId.read(id, () => {
        const row = select.get(id);
        return row ? toOrg(row) : null;
      });
      return org && { ...org };
    },
    async list() {
      return selectAll.all().map(toOrg);
    },
    async setQuota(id, maxTranslations) {
      cache.clear();
      const row = updateQuota.get(maxTranslations, id);
      return row ? toOrg(row) : null;
    },
  };
}
