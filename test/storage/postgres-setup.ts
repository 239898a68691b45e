/**
 * Shared set-up of the Postgres tests: every store lives in a schema of its own, created for the
 * test and dropped after it, so tests never see one another's rows and may run against any
 * database the URL names.
 */
import { test } from "bun:test";
import postgres, { type Sql } from "postgres";

export const POSTGRES_URL =
  process.env.PARLANCE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestSchema {
  name: string;
  /** A client whose search_path is the schema. */
  connect(max?: number): Sql;
  /** Ends every client made by `connect`, then drops the schema. */
  drop(): Promise<void>;
}

export async function createTestSchema(): Promise<TestSchema> {
  const name = `p_${crypto.randomUUID().replaceAll("-", "")}`;
  const open = (max: number) =>
    postgres(POSTGRES_URL, { max, connection: { search_path: name }, onnotice: () => {} });
  const clients: Sql[] = [];
  const admin = open(1);
  await admin`CREATE SCHEMA ${admin(name)}`;
  return {
    name,
    connect(max = 4) {
      const client = open(max);
      clients.push(client);
      return client;
    },
    async drop() {
      // Clients first, so no open transaction of theirs holds the drop up.
      await Promise.all(clients.map((c) => c.end({ timeout: 5 })));
      await admin`DROP SCHEMA ${admin(name)} CASCADE`;
      await admin.end({ timeout: 5 });
    },
  };
}

/** The URL without its password, fit for a CI log. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/**
 * Whether the test database answers. Outside CI an unreachable database skips the Postgres tests
 * with a visible message; in CI it registers a failing test, so they are never skipped silently.
 */
export async function postgresReachable(): Promise<boolean> {
  const probe = postgres(POSTGRES_URL, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await probe`SELECT 1`;
    return true;
  } catch (error) {
    const why = `Postgres is unreachable at ${redacted(POSTGRES_URL)} (set PARLANCE_TEST_POSTGRES_URL): ${String(error)}`;
    if (process.env.CI) {
      test("Postgres test database is reachable", () => {
        throw new Error(why);
      });
    } else {
      console.warn(`Skipping Postgres tests. ${why}`);
      test.skip(`Postgres tests (skipped: ${why})`, () => {});
    }
    return false;
  } finally {
    await probe.end({ timeout: 1 });
  }
}
