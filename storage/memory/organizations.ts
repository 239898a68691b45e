import { compareCodePoints } from "../../core/code-point.ts";
import type { OrganizationStore } from "../../core/ports.ts";
import type { Organization } from "../../core/types.ts";

export function createMemoryOrganizationStore(): OrganizationStore {
  const orgs = new Map<string, Organization>();
  return {
    async create(org) {
      if (orgs.has(org.id)) throw new Error(`Organization ${org.id} already exists`);
      orgs.set(org.id, { ...org });
    },
    async get(id) {
      const org = orgs.get(id);
      return org ? { ...org } : null;
    },
    async list() {
      return [...orgs.values()]
        .sort((a, b) => compareCodePoints(a.name, b.name) || compareCodePoints(a.id, b.id))
        .map((o) => ({ ...o }));
    },
    async setQuota(id, maxTranslations) {
      const org = orgs.get(id);
      if (!org) return null;
      org.maxTranslations = maxTranslations;
      return { ...org };
    },
  };
}
