/**
 * The HTTP test harness: a real Parlance behind the real Elysia app, driven with `app.handle`
 * (no socket), on a fresh store per call. Every HTTP suite runs once per store kind.
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runtimeHasher } from "../../adapters/hasher.ts";
import { createMemoryRateLimiter } from "../../adapters/memory-rate-limiter.ts";
import { createPQueueJobQueue } from "../../adapters/p-queue-job-queue.ts";
import { createPasswordHasher } from "../../adapters/password-hasher.ts";
import { createPostgresRateLimiter } from "../../adapters/postgres-rate-limiter.ts";
import { createFixedClock } from "../../adapters/system-clock.ts";
import {
  type ApiKeyInfo,
  createParlance,
  type JobQueue,
  type Parlance,
  type ProjectView,
  SCOPES,
  type Scope,
} from "../../core/index.ts";
import { createServer, type ParlanceServer } from "../../server/app.ts";
import { createMemoryStorage } from "../../storage/memory/index.ts";
import { createPostgresStorage } from "../../storage/postgres/index.ts";
import { createSqliteStorage } from "../../storage/sqlite/index.ts";
import { createTestSchema, postgresReachable } from "../storage/postgres-setup.ts";
import { expectConformance } from "./conformance.ts";

export type StoreKind = "memory" | "sqlite" | "postgres";

export interface SeededKey extends ApiKeyInfo {
  key: string;
  orgId: string;
}

export interface TestServer {
  app: ParlanceServer;
  parlance: Parlance;
  /** Moves only when told: rate-limit windows and expiries are tested without sleeping. */
  clock: ReturnType<typeof createFixedClock>;
  /** Sends a request to the app. `key` sets `Authorization: Bearer <key>`; `json` sends a JSON body. */
  request(path: string, init?: RequestInit & { key?: string; json?: unknown }): Promise<Response>;
  /** Resolves when no import job is queued or running. */
  idle(): Promise<void>;
  /** The database file, with `sqliteFile`. */
  sqlitePath?: string;
  seed: {
    org(name?: string): Promise<{ id: string; name: string }>;
    project(
      orgId: string,
      opts?: { name?: string; base?: string; languages?: string[] },
    ): Promise<ProjectView>;
    key(
      orgId: string,
      opts?: { scopes?: readonly Scope[]; name?: string; rateLimit?: number; expiresAt?: string },
    ): Promise<SeededKey>;
    /** An organization with one project (en base; en, fr, de) and a key with every scope. */
    world(): Promise<{ orgId: string; project: ProjectView; key: SeededKey }>;
  };
  close(): Promise<void>;
}

export const BASE_URL = "http://localhost";

/** A queue that holds its tasks: imports stay pending, as behind a slow one. */
function heldQueue(): JobQueue {
  return { add() {}, onIdle: async () => {}, close: async () => {} };
}

export async function startTestServer(
  kind: StoreKind,
  options: {
    development?: boolean;
    anonRateLimit?: number;
    publicUrl?: string;
    maxQueuedJobs?: number;
    /** Accepted imports stay pending: the queue runs nothing. */
    holdJobs?: boolean;
    /**
     * SQLite on a file with the read connection `serve` opens for exports (instead of `:memory:`,
     * where exports read on the main connection).
     */
    sqliteFile?: boolean;
    /** Exports stream their pieces as text (ServerOptions.textChunks), as on Bun's own server. */
    textChunks?: boolean;
  } = {},
): Promise<TestServer> {
  const clock = createFixedClock("2026-06-01T12:00:00.000Z");
  let sqlitePath: string | undefined;
  const closers: (() => Promise<void>)[] = [];
  let storage: Awaited<ReturnType<typeof createPostgresStorage>>;
  let rateLimiter:
    | Awaited<ReturnType<typeof createMemoryRateLimiter>>
    | ReturnType<typeof createPostgresRateLimiter>;
  if (kind === "postgres") {
    const schema = await createTestSchema();
    const sql = schema.connect(4);
    storage = await createPostgresStorage(sql);
    rateLimiter = createPostgresRateLimiter(sql);
    closers.push(() => schema.drop());
  } else if (kind === "sqlite") {
    const dir = options.sqliteFile ? mkdtempSync(join(tmpdir(), "parlance-test-")) : null;
    sqlitePath = dir ? join(dir, "parlance.db") : undefined;
    const db = new Database(sqlitePath ?? ":memory:");
    const exportConnection = sqlitePath ? new Database(sqlitePath) : undefined;
    storage = createSqliteStorage(db, { exportConnection });
    rateLimiter = await createMemoryRateLimiter(storage.rateWindows, clock);
    closers.push(async () => {
      exportConnection?.close();
      db.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });
  } else {
    storage = createMemoryStorage();
    rateLimiter = await createMemoryRateLimiter(storage.rateWindows, clock);
  }
  const queue = options.holdJobs ? heldQueue() : createPQueueJobQueue();
  const parlance = createParlance(
    {
      storage,
      queue,
      clock,
      rateLimiter,
      hasher: runtimeHasher,
      // Cheap on purpose: tests sign in often; the production cost is tested on its own.
      passwords: createPasswordHasher({ memoryCost: 1024, timeCost: 1 }),
    },
    {
      anonRateLimit: options.anonRateLimit ?? 1000,
      ...(options.maxQueuedJobs === undefined ? {} : { maxQueuedJobs: options.maxQueuedJobs }),
    },
  );
  await parlance.start();
  // The start-up look for jobs finishes first: a claim still waiting for a pooled connection
  // could otherwise run after a test's first push and take a job the test means to hold.
  await queue.onIdle();
  const app = createServer(parlance, {
    development: options.development ?? false,
    publicUrl: options.publicUrl,
    textChunks: options.textChunks ?? false,
  });

  const seed: TestServer["seed"] = {
    org: (name = `Org ${crypto.randomUUID().slice(0, 8)}`) => parlance.admin.createOrg(name),
    project: (orgId, opts = {}) =>
      parlance.admin.createProject({
        orgId,
        name: opts.name ?? `Project ${crypto.randomUUID().slice(0, 8)}`,
        baseLanguage: opts.base ?? "en",
        languages: opts.languages ?? ["en", "fr", "de"],
      }),
    key: async (orgId, opts = {}) => {
      const created = await parlance.admin.createKey(orgId, {
        name: opts.name ?? `key-${crypto.randomUUID().slice(0, 8)}`,
        scopes: opts.scopes ?? SCOPES,
        rateLimit: opts.rateLimit,
        expiresAt: opts.expiresAt,
      });
      return { ...created, orgId };
    },
    async world() {
      const org = await seed.org();
      const project = await seed.project(org.id);
      const key = await seed.key(org.id);
      return { orgId: org.id, project, key };
    },
  };

  return {
    app,
    parlance,
    clock,
    seed,
    sqlitePath,
    async request(path, init = {}) {
      const { key, json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== undefined) headers.set("authorization", `Bearer ${key}`);
      let body = rest.body;
      if (json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(json);
      }
      const request = new Request(`${BASE_URL}${path}`, { ...rest, headers, body });
      const response = await app.handle(request);
      await expectConformance(app, request, response);
      return response;
    },
    idle: () => queue.onIdle(),
    async close() {
      await parlance.close();
      await storage.close();
      for (const c of closers) await c();
    },
  };
}

/**
 * Runs `suite` once per store kind: memory and SQLite always, Postgres whenever it is reachable
 * (and as a failing test in CI when it is not: postgresReachable decides).
 */
export async function forEachStore(suite: (kind: StoreKind) => void): Promise<void> {
  const kinds: StoreKind[] = ["memory", "sqlite"];
  if (await postgresReachable()) kinds.push("postgres");
  for (const kind of kinds) describe(`[${kind}]`, () => suite(kind));
}

/** One test's seeded world: a fresh server, an organization, its project and an all-scopes key. */
export interface World {
  s: TestServer;
  orgId: string;
  /** The project: base en; languages en, fr, de. */
  projectId: string;
  /** A full key (`pl_…`) with every scope. */
  key: string;
  /** Where most pushes go: that key, that project, language fr. */
  fr: { key: string; projectId: string; language: string };
  /** All of it as `seed.world()` returned it (the project view, the key's info). */
  seeded: Awaited<ReturnType<TestServer["seed"]["world"]>>;
}

/**
 * Before each test of the enclosing suite, starts a fresh server on `kind`, seeds a world and hands
 * it to `receive`; closes the server after the test.
 */
export function useWorld(kind: StoreKind, receive: (world: World) => void): void {
  let server: TestServer | undefined;
  beforeEach(async () => {
    server = await startTestServer(kind);
    const seeded = await server.seed.world();
    const { orgId, project, key } = seeded;
    const fr = { key: key.key, projectId: project.id, language: "fr" };
    receive({ s: server, orgId, projectId: project.id, key: key.key, fr, seeded });
  });
  afterEach(() => server?.close());
}
