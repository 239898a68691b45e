import type { Database } from "bun:sqlite";
import type { Storage } from "../../core/ports.ts";
import { createLocalExclusive } from "../local-exclusive.ts";
import { createSqliteEnvironmentStore } from "./environments.ts";
import { createSqliteJobStore } from "./jobs.ts";
import { createSqliteKeyStore } from "./keys.ts";
import { configureSqlite, migrateSqlite } from "./migrate.ts";
import { createSqliteOrganizationStore } from "./organizations.ts";
import { createSqliteProjectStore } from "./projects.ts";
import { createSqliteRateWindowStore } from "./rate-windows.ts";
import { createReadCache } from "./read-cache.ts";
import { createStatements } from "./statements.ts";
import { createSqliteTokenStore } from "./tokens.ts";
import { createSqliteTranslationStore } from "./translations.ts";

export { configureSqlite, migrateSqlite } from "./migrate.ts";
export { SQLITE_MIGRATIONS } from "./schema.ts";

/**
 * Storage on a bun:sqlite connection the caller opened (and closes). Configures the connection and
 * migrates the schema before preparing its statements.
 */
export function createSqliteStorage(db: Database): Storage {
  configureSqlite(db);
  migrateSqlite(db);
  const s = createStatements(db);
  const ping = s.prepare<{ ok: number }, []>("SELECT 1 AS ok");
  const cache = createReadCache(s);
  return {
    orgs: createSqliteOrganizationStore(s, cache),
    projects: createSqliteProjectStore(s, cache),
    keys: createSqliteKeyStore(db, s, cache),
    tokens: createSqliteTokenStore(s),
    translations: createSqliteTranslationStore(db, s),
    jobs: createSqliteJobStore(db, s),
    environments: createSqliteEnvironmentStore(s),
    rateWindows: createSqliteRateWindowStore(db, s),
    shared: false,
    exclusive: createLocalExclusive(),
    async ping() {
      ping.get();
    },
    async close() {
      s.finalizeAll();
    },
  };
}
