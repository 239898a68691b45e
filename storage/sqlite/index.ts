import type { Database } from "bun:sqlite";
import type { Storage } from "../../core/ports.ts";
import { createLocalExclusive } from "../local-exclusive.ts";
import { BASE_CACHE_BYTES, createBaseCache } from "./base-cache.ts";
import { createSqliteCoverage } from "./coverage.ts";
import { createSqliteEnvironmentStore } from "./environments.ts";
import { createExportStream, EXPORT_HOLD_MS } from "./export-stream.ts";
import { createExportBumps } from "./export-versions.ts";
import type { ImportThread } from "./import-thread.ts";
import { createSqliteJobStore, type ImportConnection, type ImportOnThread } from "./jobs.ts";
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
import { createStatements, type Statements } from "./statements.ts";
import { createSqliteTokenStore } from "./tokens.ts";
import { createSqliteTranslationStore } from "./translations.ts";
import { withUnavailable } from "./unavailable.ts";
import { createSqliteUserStore } from "./users.ts";
import type { WalCheckpointer } from "./wal-checkpointer.ts";
import { behindGate, createWriteGate } from "./write-gate.ts";

export { configureSqlite, migrateSqlite } from "./migrate.ts";
export { SQLITE_MIGRATIONS } from "./schema.ts";

export interface SqliteStorageOptions {
  /**
   * A second connection to the same database file (the caller opens and closes it). Import jobs
   * then commit on it in slices that give the event loop back between them, so a 50,000-row
   * import no longer holds every request for the length of its transaction; readers see none of
   * it until it commits. Without it (and for `:memory:`, which a second connection cannot share)
   * an import commits in one synchronous transaction.
   */
  importConnection?: Database;
  /**
   * A worker thread with a connection of its own to the same file (the caller starts and closes
   * it): import jobs then commit there, and this thread only builds what they write. With it,
   * `importConnection` (when given) only stores a push's job and content, in slices.
   */
  importThread?: ImportThread;
  /**
   * Checkpoints the database file's write-ahead log on a thread of its own (the caller starts and
   * closes it). The connections then leave checkpoints to it, but for a safety net far above what
   * a push writes, and ask it for one after each large commit (a push's job, an import).
   */
  checkpointer?: WalCheckpointer;
  /**
   * Run at each turn an import's commit on `importConnection` or `importThread` gives the event
   * loop: the Bun server passes a young-generation collection, since binding a 50,000-row import's
   * values leaves about 25 MiB of garbage that the engine otherwise keeps until the import ends.
   */
  betweenSlices?: () => void;
  /**
   * A read connection to the same database file (the caller opens and closes it): XLIFF pulls of
   * a whole language read their rows on it page by page while the file is sent
   * (storage/sqlite/export-stream.ts). Without it they read whole on the main connection.
   */
  exportConnection?: Database;
  /**
   * Budget of the base languages' rows kept between XLIFF pulls on `exportConnection`, in
   * estimated bytes (storage/sqlite/base-cache.ts; BASE_CACHE_BYTES by default); 0 keeps none.
   */
  baseCacheBytes?: number;
}

/**
 * Bytes of log past which the main connection checkpoints by itself although a checkpointer runs:
 * a safety net for a checkpointer that stopped, far above what one push logs (a 50,000-row
 * rewrite logs about 80 MB; a 13 MiB body of tiny values, several hundred). At 40 MB it sat below
 * one import's log, so the first small write after an import, when it came before the
 * checkpointer had started, copied the whole log into the file on the event loop (docs/benchmarks.md,
 * "The import stall, eighth pass"). SQLite counts it in pages, so it is divided by the page size.
 */
const WAL_SAFETY_BYTES = 1024 * 1024 * 1024;

/**
 * Storage on a bun:sqlite connection the caller opened (and closes). Configures the connection and
 * migrates the schema before preparing its statements. A database another connection keeps locked
 * past busy_timeout makes a method reject with ParlanceError "unavailable" (503, not 500).
 */
export function createSqliteStorage(db: Database, options: SqliteStorageOptions = {}): Storage {
  configureSqlite(db);
  migrateSqlite(db);
  const s = createStatements(db);
  const thread = options.importThread;
  const connection = options.importConnection && openApart(db, s, options.importConnection);
  const apart: ImportConnection | ImportOnThread | undefined = thread
    ? { thread, gate: connection?.gate ?? createWriteGate(db, s), jobs: connection }
    : connection;
  const checkpointer = options.checkpointer;
  if (checkpointer) {
    db.run(`PRAGMA wal_autocheckpoint = ${walSafetyPages(db)}`);
    // Never where imports commit: a 50,000-row import logs tens of megabytes, so its
    // COMMIT would copy the whole log into the file on the event loop (300 ms to 1 s under load).
    // The checkpointer copies it right after; the main connection keeps the safety net.
    thread?.send("PRAGMA wal_autocheckpoint = 0", []);
    connection?.db.run("PRAGMA wal_autocheckpoint = 0");
  }
  // Behind the gate, a method that finds the import holding the write lock waits for it.
  const wrap = <T extends object>(store: T): T =>
    withUnavailable(apart ? behindGate(store, apart.gate) : store);
  const ping = s.prepare<{ ok: number }, []>("SELECT 1 AS ok");
  const cache = createReadCache(s);
  const coverage = createSqliteCoverage(db, s);
  if (options.exportConnection) configureSqlite(options.exportConnection);
  const baseCacheBytes = options.baseCacheBytes ?? BASE_CACHE_BYTES;
  // This storage's bumps, whichever of its connections writes: its own kept bases let go.
  const bumps = createExportBumps();
  const exportStream =
    options.exportConnection &&
    createExportStream(
      options.exportConnection,
      EXPORT_HOLD_MS,
      baseCacheBytes > 0 ? { cache: createBaseCache(baseCacheBytes), bumps } : undefined,
    );
  return withUnavailable({
    users: wrap(createSqliteUserStore(s)),
    memberships: wrap(createSqliteMembershipStore(db, s)),
    sessions: wrap(createSqliteSessionStore(s)),
    oneTimeTokens: wrap(createSqliteOneTimeTokenStore(s)),
    orgs: wrap(createSqliteOrganizationStore(s, cache)),
    projects: wrap(createSqliteProjectStore(s, cache)),
    keys: wrap(createSqliteKeyStore(db, s, cache)),
    tokens: wrap(createSqliteTokenStore(s)),
    translations: wrap(createSqliteTranslationStore(db, s, coverage, exportStream)),
    records: wrap(createSqliteRecordStore(db, s, coverage, bumps)),
    jobs: wrap(
      createSqliteJobStore(db, s, apart, () => checkpointer?.request(), options.betweenSlices, bumps),
    ),
    environments: wrap(createSqliteEnvironmentStore(db, s, bumps)),
    rateWindows: wrap(createSqliteRateWindowStore(db, s)),
    shared: false,
    exclusive: createLocalExclusive(),
    async ping() {
      ping.get();
    },
    async close() {
      s.finalizeAll();
      exportStream?.close();
      connection?.s.finalizeAll();
    },
  });
}

/** The safety net in the file's pages (read after migrating, so a new file's size is settled). */
function walSafetyPages(db: Database): number {
  const size = db.query<{ page_size: number }, []>("PRAGMA page_size").get()?.page_size ?? 4096;
  return Math.ceil(WAL_SAFETY_BYTES / size);
}

function openApart(main: Database, mainStatements: Statements, db: Database): ImportConnection {
  configureSqlite(db);
  return { db, s: createStatements(db), gate: createWriteGate(main, mainStatements) };
}
