import type { Storage } from "../../core/ports.ts";
import type { Project } from "../../core/types.ts";
import { createLocalExclusive } from "../local-exclusive.ts";
import { createMemoryEnvironmentStore } from "./environments.ts";
import { createMemoryJobStore } from "./jobs.ts";
import { createMemoryKeyStore } from "./keys.ts";
import { createMemoryMembershipStore } from "./memberships.ts";
import { createMemoryOneTimeTokenStore } from "./one-time-tokens.ts";
import { createMemoryOrganizationStore } from "./organizations.ts";
import { createMemoryProjectStore } from "./projects.ts";
import { createMemoryRateWindowStore } from "./rate-windows.ts";
import { createRecordLog } from "./record-log.ts";
import { createMemoryRecordStore } from "./records.ts";
import { createMemorySessionStore } from "./sessions.ts";
import { createMemoryTokenStore } from "./tokens.ts";
import type { TranslationTable } from "./translation-table.ts";
import { createMemoryTranslationStore } from "./translations.ts";
import { createMemoryUserStore, type UserTable } from "./users.ts";

/**
 * Storage in plain Maps, for tests and throwaway instances. Every method runs without awaiting, so
 * each call is atomic; records go in and come out as copies, so callers never share stored state.
 */
export function createMemoryStorage(): Storage {
  const projects = new Map<string, Project>();
  const translations: TranslationTable = new Map();
  const users: UserTable = new Map();
  const log = createRecordLog();
  return {
    users: createMemoryUserStore(users),
    memberships: createMemoryMembershipStore(users),
    sessions: createMemorySessionStore(),
    oneTimeTokens: createMemoryOneTimeTokenStore(),
    orgs: createMemoryOrganizationStore(),
    projects: createMemoryProjectStore(projects),
    keys: createMemoryKeyStore(),
    tokens: createMemoryTokenStore(),
    translations: createMemoryTranslationStore(translations, projects),
    records: createMemoryRecordStore(translations, log),
    jobs: createMemoryJobStore(translations, log),
    environments: createMemoryEnvironmentStore(translations),
    rateWindows: createMemoryRateWindowStore(),
    shared: false,
    exclusive: createLocalExclusive(),
    async ping() {},
    async close() {},
  };
}
