import type { Sql } from "postgres";
import type { ProjectStore } from "../../core/ports.ts";
import type { Project } from "../../core/types.ts";
import { type DbRow, iso, isoOrNull, str, strings } from "./convert.ts";
import type { RowCache } from "./row-cache.ts";

const toProject = (r: DbRow): Project => ({
  id: str(r.id),
  orgId: str(r.org_id),
  name: str(r.name),
  baseLanguage: str(r.base_language),
  languages: strings(r.languages),
  deletedAt: isoOrNull(r.deleted_at),
  createdAt: iso(r.created_at),
});

const copy = (p: Project | null): Project | null => (p ? { ...p, languages: [...p.languages] } : null);

export function createProjectStore(sql: Sql, cache: RowCache): ProjectStore {
  /** The row a write returned, once this instance's entry of it is dropped. */
  const changed = (row: DbRow | undefined, id: string): Project | null => {
    cache.drop("projects", id);
    return row ? toProject(row) : null;
  };
  return {
    async create(p) {
      await sql`
        INSERT INTO projects (id, org_id, name, base_language, languages, deleted_at, created_at)
        VALUES (${p.id}, ${p.orgId}, ${p.name}, ${p.baseLanguage}, ${sql.array(p.languages)}::text[],
                ${p.deletedAt}, ${p.createdAt})`;
    },
    async get(id) {
      const load = async () => {
        const [row] = await sql`SELECT * FROM projects WHERE id = ${id}`;
        return row ? toProject(row) : null;
      };
      return copy(await cache.read("projects", id, load, (p) => p.id));
    },
    getNow(id) {
      // Only a cached row answers now (absent rows are never cached): anything else is a round trip.
      const project = cache.peek<Project>("projects", id);
      return project && copy(project);
    },
    async listByOrg(orgId) {
      const rows = await sql`
        SELECT * FROM projects WHERE org_id = ${orgId} AND deleted_at IS NULL ORDER BY name, id`;
      return rows.map(toProject);
    },
    async listAll() {
      const rows = await sql`SELECT * FROM projects WHERE deleted_at IS NULL ORDER BY name, id`;
      return rows.map(toProject);
    },
    async addLanguage(id, language) {
      // One statement, so two concurrent additions cannot lose one another.
      const [row] = await sql`
        UPDATE projects
        SET languages = CASE WHEN ${language}::text = ANY (languages) THEN languages
                             ELSE array_append(languages, ${language}::text) END
        WHERE id = ${id}
        RETURNING *`;
      return changed(row, id);
    },
    async rename(id, name) {
      const [row] = await sql`UPDATE projects SET name = ${name} WHERE id = ${id} RETURNING *`;
      return changed(row, id);
    },
    async softDelete(id, now) {
      const [row] = await sql`
        UPDATE projects SET deleted_at = coalesce(deleted_at, ${now}) WHERE id = ${id} RETURNING *`;
      return changed(row, id);
    },
  };
}
