import type { Database } from "bun:sqlite";
import type { Storage } from "../../core/ports.ts";
import { createLocalExclusive } from "../local-exclusive.ts";
import { createSqliteCoverage } from "./coverage.ts";
import { createSqliteEnvironmentStore } from "./environments.ts";
import { createSqliteJobStore } from "./jobs.ts";
import { createSqliteKeyStore } from "./keys.ts";
import { createSqliteMembershipStore } from "./memberships.ts";
import { configureSqlite, migrateSqlite } from "./migrate.ts";
import { createSqliteOneTimeTokenStore } from "./one-time-tokens.ts";
import { createSqliteOrganizationStore } from "./organizations.ts";
import { createSqliteProjectStore } from "./projects.ts";
import { createSqliteRateWindowStore } from "./rate-windows.ts";
import { createReadCache } from "./read-cache.ts";
import { createSqliteRecordStore } from "./records.ts";
import { createSqliteSessionStore } from "./sessions.ts";
import { createStatements } from "./statements.ts";
import { createSqliteTokenStore } from "./tokens.ts";
import { createSqliteTranslationStore } from "./translations.ts";
import { withUnavailable } from "./unavailable.ts";
import { createSqliteUserStore } from "./users.ts";

export { configureSqlite, migrateSqlite } from "./migrate.ts";
export { SQLITE_MIGRATIONS } from "./schema.ts";

/**
 * Storage on a bun:sqlite connection the caller opened (and closes). Configures the connection and
 * migrates the schema before preparing its statements. A database another connection keeps locked
 * past busy_timeout makes a method reject with ParlanceError "unavailable" (503, not 500).
 */
export function createSqliteStorage(db: Database): Storage {
  configureSqlite(db);
  migrateSqlite(db);
  const s = createStatements(db);
  const ping = s.prepare<{ ok: number }, []>("SELECT 1 AS ok");
  const cache = createReadCache(s);
  const coverage = createSqliteCoverage(db, s);
  return withUnavailable({
    users: withUnavailable(createSqliteUserStore(s)),
    memberships: withUnavailable(createSqliteMembershipStore(db, s)),
    sessions: withUnavailable(createSqliteSessionStore(s)),
    oneTimeTokens: withUnavailable(createSqliteOneTimeTokenStore(s)),
    orgs: withUnavailable(createSqliteOrganizationStore(s, cache)),
    projects: withUnavailable(createSqliteProjectStore(s, cache)),
    keys: withUnavailable(createSqliteKeyStore(db, s, cache)),
    tokens: withUnavailable(createSqliteTokenStore(s)),
    translations: withUnavailable(createSqliteTranslationStore(db, s, coverage)),
    records: withUnavailable(createSqliteRecordStore(db, s, coverage)),
    jobs: withUnavailable(createSqliteJobStore(db, s)),
    environments: withUnavailable(createSqliteEnvironmentStore(db, s)),
    rateWindows: withUnavailable(createSqliteRateWindowStore(db, s)),
    shared: false,
    exclusive: createLocalExclusive(),
    async ping() {
      ping.get();
    },
    async close() {
      s.finalizeAll();
    },
  });
}
