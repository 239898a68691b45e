import type { Database } from "bun:sqlite";
import type { EnvironmentStore } from "../../core/ports.ts";
import { createExportVersions, type ExportBumps } from "./export-versions.ts";
import type { Statements } from "./statements.ts";

export function createSqliteEnvironmentStore(
  db: Database,
  s: Statements,
  bumps?: ExportBumps,
): EnvironmentStore {
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
  const versions = createExportVersions(s, bumps);
  // An override changes what pulls of its language with that environment write.
  const set = db.transaction((o: Parameters<EnvironmentStore["set"]>[0]) => {
    upsert.run(o.projectId, o.environment, o.language, o.key, o.value);
    versions.bump(o.projectId, [o.language]);
  });
  return {
    async set(o) {
      set.immediate(o);
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
