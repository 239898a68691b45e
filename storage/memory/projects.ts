import { compareCodePoints } from "../../core/code-point.ts";
import type { ProjectStore } from "../../core/ports.ts";
import type { Project } from "../../core/types.ts";

const copy = (p: Project): Project => ({ ...p, languages: [...p.languages] });

/** `projects` is shared with the translation store, which counts rows of non-deleted projects. */
export function createMemoryProjectStore(projects: Map<string, Project>): ProjectStore {
  const listed = (keep: (p: Project) => boolean): Project[] =>
    [...projects.values()]
      .filter((p) => p.deletedAt === null && keep(p))
      .sort((a, b) => compareCodePoints(a.name, b.name) || compareCodePoints(a.id, b.id))
      .map(copy);
  return {
    async create(project) {
      if (projects.has(project.id)) throw new Error(`Project ${project.id} already exists`);
      projects.set(project.id, copy(project));
    },
    async get(id) {
      const p = projects.get(id);
      return p ? copy(p) : null;
    },
    getNow(id) {
      const p = projects.get(id);
      return p ? copy(p) : null;
    },
    async listByOrg(orgId) {
      return listed((p) => p.orgId === orgId);
    },
    async listAll() {
      return listed(() => true);
    },
    async addLanguage(id, language) {
      const p = projects.get(id);
      if (!p) return null;
      if (!p.languages.includes(language)) p.languages.push(language);
      return copy(p);
    },
    async rename(id, name) {
      const p = projects.get(id);
      if (!p) return null;
      p.name = name;
      return copy(p);
    },
    async softDelete(id, now) {
      const p = projects.get(id);
      if (!p) return null;
      p.deletedAt ??= now;
      return copy(p);
    },
  };
}
