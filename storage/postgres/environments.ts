import type { Sql } from "postgres";
import type { EnvironmentStore } from "../../core/ports.ts";
import { str } from "./convert.ts";
import { bumpExportVersions } from "./export-versions.ts";

export function createEnvironmentStore(sql: Sql): EnvironmentStore {
  return {
    async set(o) {
      // An override changes what pulls of its language with that environment write.
      await sql.begin(async (tx) => {
        await tx`
          INSERT INTO environment_overrides (project_id, environment, language, key, value)
          VALUES (${o.projectId}, ${o.environment}, ${o.language}, ${o.key}, ${o.value})
          ON CONFLICT (project_id, environment, language, parlance_key_digest(key)) DO UPDATE SET value = excluded.value`;
        await bumpExportVersions(tx, o.projectId, [o.language]);
      });
    },
    async list(projectId, environment, language) {
      const rows = await sql`
        SELECT key, value FROM environment_overrides
        WHERE project_id = ${projectId} AND environment = ${environment} AND language = ${language}`;
      return new Map(rows.map((r) => [str(r.key), str(r.value)]));
    },
    async exists(projectId, environment) {
      const [row] = await sql`
        SELECT 1 FROM environment_overrides
        WHERE project_id = ${projectId} AND environment = ${environment} LIMIT 1`;
      return row !== undefined;
    },
  };
}
