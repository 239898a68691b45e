import type { ProjectStore } from "../../core/ports.ts";
import type { Project } from "../../core/types.ts";
import type { ReadCache } from "./read-cache.ts";
import type { Statements } from "./statements.ts";
import { readNow } from "./unavailable.ts";

interface ProjectRow {
  id: string;
  org_id: string;
  name: string;
  base_language: string;
  languages: string;
  deleted_at: string | null;
  created_at: string;
}

const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  baseLanguage: r.base_language,
  languages: JSON.parse(r.languages) as string[],
  deletedAt: r.deleted_at,
  createdAt: r.created_at,
});

const copy = (p: Project): Project => ({ ...p, languages: [...p.languages] });

export function createSqliteProjectStore(s: Statements, cache: ReadCache): ProjectStore {
  const byId = cache.space<Project>();
  const insert = s.prepare<never, [string, string, string, string, string, string | null, string]>(
    `INSERT INTO projects (id, org_id, name, base_language, languages, deleted_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const select = s.prepare<ProjectRow, [string]>("SELECT * FROM projects WHERE id = ?");
  const selectByOrg = s.prepare<ProjectRow, [string]>(
    "SELECT * FROM projects WHERE org_id = ? AND deleted_at IS NULL ORDER BY name, id",
  );
  const selectAll = s.prepare<ProjectRow, []>(
    "SELECT * FROM projects WHERE deleted_at IS NULL ORDER BY name, id",
  );
  // One statement, so two concurrent additions cannot lose one another.
  const appendLanguage = s.prepare<ProjectRow, [string, string, string]>(
    `UPDATE projects SET languages = json_insert(languages, '$[#]', ?)
     WHERE id = ? AND NOT EXISTS (SELECT 1 FROM json_each(projects.languages) WHERE value = ?)
     RETURNING *`,
  );
  const markDeleted = s.prepare<ProjectRow, [string, string]>(
    "UPDATE projects SET deleted_at = COALESCE(deleted_at, ?) WHERE id = ? RETURNING *",
  );
  const setName = s.prepare<ProjectRow, [string, string]>(
    "UPDATE projects SET name = ? WHERE id = ? RETURNING *",
  );
  const load = (id: string): Project | null => {
    const row = select.get(id);
    return row ? toProject(row) : null;
  };
  const get = (id: string): Project | null => {
    const project = byId.read(id, load);
    return project && copy(project);
  };
  return {
    async create(p) {
      cache.clear();
      insert.run(
        p.id,
        p.orgId,
        p.name,
        p.baseLanguage,
        JSON.stringify(p.languages),
        p.deletedAt,
        p.createdAt,
      );
    },
    async get(id) {
      return get(id);
    },
    getNow: (id) => readNow(get, id),
    async listByOrg(orgId) {
      return selectByOrg.all(orgId).map(toProject);
    },
    async listAll() {
      return selectAll.all().map(toProject);
    },
    async addLanguage(id, language) {
      cache.clear();
      const row = appendLanguage.get(language, id, language) ?? select.get(id);
      return row ? toProject(row) : null;
    },
    async rename(id, name) {
      cache.clear();
      const row = setName.get(name, id);
      return row ? toProject(row) : null;
    },
    async softDelete(id, now) {
      cache.clear();
      const row = markDeleted.get(now, id);
      return row ? toProject(row) : null;
    },
  };
}
