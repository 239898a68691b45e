/**
 * Postgres storage: every port over one `postgres` (Postgres.js) client that the caller built and
 * still owns. Several server instances may share the database (`shared: true`): every racing
 * operation is a single statement or a transaction that locks what it reads. Keys, tokens, projects
 * and organizations are cached in the instance and dropped when any session changes them
 * (row-cache.ts: LISTEN/NOTIFY, never served more than 0.8 s behind the database).
 */
import type { Sql } from "postgres";
import type { Storage } from "../../core/ports.ts";
import { createPostgresCoverage } from "./coverage.ts";
import { createEnvironmentStore } from "./environments.ts";
import { createJobStore } from "./jobs.ts";
import { createKeyStore } from "./keys.ts";
import { createMembershipStore } from "./memberships.ts";
import { migratePostgres } from "./migrate.ts";
import { createOneTimeTokenStore } from "./one-time-tokens.ts";
import { createOrgStore } from "./orgs.ts";
import { outageGateOf } from "./outage-gate.ts";
import { createProjectStore } from "./projects.ts";
import { createRateWindowStore } from "./rate-windows.ts";
import { createRecordStore } from "./records.ts";
import { createRowCache } from "./row-cache.ts";
import { createSessionStore } from "./sessions.ts";
import { createTokenStore } from "./tokens.ts";
import { createTranslationStore } from "./translations.ts";
import { withUnavailable } from "./unavailable.ts";
import { createUserStore } from "./users.ts";

export { isMigrated, migratePostgres } from "./migrate.ts";
export { postgresMigrations } from "./schema.ts";

/**
 * Migrates the schema the client's search_path points at, then returns the store. A database that
 * cannot be reached makes every method reject with ParlanceError "unavailable" (503, not 500).
 */
export async function createPostgresStorage(sql: Sql): Promise<Storage> {
  await migratePostgres(sql);
  const cache = createRowCache(sql);
  const coverage = createPostgresCoverage(sql);
  const gate = outageGateOf(sql);
  return withUnavailable(
    {
      users: withUnavailable(createUserStore(sql), gate),
      memberships: withUnavailable(createMembershipStore(sql), gate),
      sessions: withUnavailable(createSessionStore(sql), gate),
      oneTimeTokens: withUnavailable(createOneTimeTokenStore(sql), gate),
      orgs: withUnavailable(createOrgStore(sql, cache), gate),
      projects: withUnavailable(createProjectStore(sql, cache), gate),
      keys: withUnavailable(createKeyStore(sql, cache), gate),
      tokens: withUnavailable(createTokenStore(sql, cache), gate),
      translations: withUnavailable(createTranslationStore(sql, coverage), gate),
      records: withUnavailable(createRecordStore(sql, coverage), gate),
      jobs: withUnavailable(createJobStore(sql), gate),
      environments: withUnavailable(createEnvironmentStore(sql), gate),
      rateWindows: withUnavailable(createRateWindowStore(sql), gate),
      shared: true,
      async exclusive(name, fn) {
        // A session-level advisory lock on a connection of its own, held while fn works through the
        // pool; keyed by schema too, so stores in different schemas never wait on each other.
        const lock = await sql.reserve();
        try {
          await lock`SELECT pg_advisory_lock(hashtext(current_schema() || ':' || ${name}))`;
          return await fn();
        } finally {
          await lock`SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || ${name}))`.catch(() => {});
          lock.release();
        }
      },
      async ping() {
        await sql`SELECT 1`;
      },
      // The client belongs to the caller; the adapter holds only its cache's LISTEN and timer.
      close: () => cache.close(),
    },
    gate,
  );
}
