import type { EnvironmentStore } from "../../core/ports.ts";
import type { Statements } from "./statements.ts";

export function createSqliteEnvironmentStore(s: Statements): EnvironmentStore {
  const upsert = s.prepare<never, [string, string, string, string, string]>(
    `INSERT INTO environment_overrides (project_id, environment, language, key, value) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id, environment, language, key) DO UPDATE SET value = excluded.value`,
  );
  const select = s.prepare<{ key: string; value: string }, [string, string, string]>(
    "SELECT key, value FROM environment_overrides WHERE project_id = ? AND environment = ? AND language = ?",
  );
  const any = s.prepare<{ found: number }, [string, string]>(
    "SELECT 1 AS found FROM environment_overrides WHERE project_id = ? AND environment = ? LIMIT 1",
  );
  return {
    async set(o) {
      upsert.run(o.projectId, o.environment, o.language, o.key, o.value);
    },
    async list(projectId, environment, language) {
      const overrides = new Map<string, string>();
      for (const r of select.all(projectId, environment, language)) overrides.set(r.key, r.value);
      return overrides;
    },
    async exists(projectId, environment) {
      return any.get(projectId, environment) !== null;
    },
  };
}
