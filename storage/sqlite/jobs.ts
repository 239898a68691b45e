import type { Database, SQLQueryBindings, Statement } from "bun:sqlite";
import { encodeText } from "../../core/json-bytes.ts";
import type { ImportCommit, JobStore } from "../../core/ports.ts";
import type { ImportPayload, ImportSummary, Job, JobStatus } from "../../core/types.ts";
import { createExportVersions, type ExportBumps } from "./export-versions.ts";
import type { ImportThread } from "./import-thread.ts";
import { createImportWriter } from "./import-writes.ts";
import { createRecordWriter } from "./record-writes.ts";
import type { Statements } from "./statements.ts";
import type { WriteGate } from "./write-gate.ts";

interface JobRow {
  id: string;
  org_id: string;
  project_id: string;
  type: "import";
  status: JobStatus;
  run_id: string;
  summary: string;
  error_message: string | null;
  payload: string | null;
  content: string | null;
  lease_until: string | null;
  attempts: number | bigint;
  created_at: string;
  updated_at: string;
}

const toJob = (r: JobRow, content: Uint8Array | null = null): Job => ({
  id: r.id,
  orgId: r.org_id,
  projectId: r.project_id,
  type: r.type,
  status: r.status,
  runId: r.run_id,
  summary: JSON.parse(r.summary) as ImportSummary,
  errorMessage: r.error_message,
  payload: r.payload === null ? null : payloadOf(r.payload, content ?? r.content),
  leaseUntil: r.lease_until,
  attempts: Number(r.attempts),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * The content comes from its parts (migration 11); rows written before migration 2 still carry it
 * inside the payload's JSON, as text.
 */
function payloadOf(json: string, content: Uint8Array | string | null): ImportPayload {
  const payload = JSON.parse(json) as Omit<ImportPayload, "content"> & { content?: string };
  const found = content ?? payload.content ?? "";
  return { ...payload, content: typeof found === "string" ? encodeText(found) : found };
}

/** Each statement binds or returns at most this much of a push's content. */
const CONTENT_PART_BYTES = 1024 * 1024;

const COLUMNS = `id, org_id, project_id, type, status, run_id, summary, error_message, payload, lease_until,
  created_at, updated_at, content, attempts`;

type Text = string | null;

/** Marks an import job completed; it changes nothing when another run took the job over. */
const FINISH = `UPDATE jobs SET status = 'completed', summary = ?, payload = NULL, content = NULL, lease_until = NULL,
   updated_at = ? WHERE id = ? AND run_id = ? AND status = 'running'`;
const finishParams = (
  id: string,
  runId: string,
  c: ImportCommit,
  now: string,
): [string, string, string, string] => [JSON.stringify(c.summary), now, id, runId];

/**
 * Completes an import job in the caller's transaction, one chunk of writes per step: the job is
 * marked completed first (false, and nothing written, when another run took it over).
 */
function createCompletion(s: Statements, bumps?: ExportBumps) {
  const finish = s.prepare<never, [string, string, string, string]>(FINISH);
  const writes = createCompletionWrites(s, undefined, bumps);
  return function* complete(
    id: string,
    runId: string,
    c: ImportCommit,
    now: string,
  ): Generator<void, boolean> {
    if (finish.run(...finishParams(id, runId, c, now)).changes === 0) return false;
    yield* writes(id, c, now);
    return true;
  };
}

/**
 * What a completion writes once its job is marked completed, one chunk per step. `each`: the
 * import thread's, whose statements return nothing here (createImportWriter).
 */
function createCompletionWrites(s: Statements, each?: ImportThread["each"], bumps?: ExportBumps) {
  const dropContent = s.prepare<never, [string]>("DELETE FROM job_content_parts WHERE job_id = ?");
  const imports = createImportWriter(s, each);
  const writer = createRecordWriter(s);
  const versions = createExportVersions(s, bumps);
  return function* writes(id: string, c: ImportCommit, now: string): Generator<void, void> {
    yield* imports.steps(c, now);
    if (c.writes.length > 0 || c.deleteIds.length > 0) versions.bump(c.projectId, [c.language]);
    if (c.audit) writer.activity({ ...c.audit.activity, at: now });
    // Last, not first: deleting the content (12 MB, about 3,000 pages) rewrites the free list's
    // trunk pages, which the import's first cache spills wrote to the log, and the import then took
    // its new pages from those trunks, writing them again. A page written twice in a transaction
    // makes its COMMIT re-read and re-sign every log frame from that one on (wal.c,
    // walRewriteChecksums): about 17,000 frames, 70–130 ms on the event loop, for a 50,000-row
    // rewrite; deleted last, that rewrite wrote no page twice and its COMMIT took 2–7 ms
    // (docs/benchmarks.md, "The import stall, eleventh pass").
    dropContent.run(id);
  };
}

/** Runs a generator to its end without pausing. */
function toEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** How long a commit on the import connection works before it gives the event loop a turn. */
const SLICE_MS = 8;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A second connection to the same file, for imports: its transaction stays open across turns of
 * the event loop while the main connection goes on reading (WAL) and waits at the gate to write.
 */
export interface ImportConnection {
  db: Database;
  s: Statements;
  gate: WriteGate;
}

/** Stores a job with its content, in parts, in the caller's transaction. */
function createJobInsert(s: Statements): (j: Job) => void {
  const steps = createJobInsertSteps(s);
  return (j) => {
    for (const _ of steps(j));
  };
}

/** The job's insert, one step per statement (its row, then each part of its content). */
function createJobInsertSteps(s: Statements): (j: Job) => Generator<void, void> {
  const insert = s.prepare<
    never,
    [string, string, string, string, string, string, string, Text, Text, Text, string, string, Text, number]
  >(`INSERT INTO jobs (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertPart = s.prepare<never, [string, number, Uint8Array]>(
    "INSERT INTO job_content_parts (job_id, part, bytes) VALUES (?, ?, ?)",
  );
  return function* (j) {
    insert.run(
      j.id,
      j.orgId,
      j.projectId,
      j.type,
      j.status,
      j.runId,
      JSON.stringify(j.summary),
      j.errorMessage,
      j.payload === null ? null : JSON.stringify({ ...j.payload, content: undefined }),
      j.leaseUntil,
      j.createdAt,
      j.updatedAt,
      null,
      j.attempts,
    );
    // The content goes in parts, in the job's transaction: stored before the 202, or not at all.
    const content = j.payload?.content;
    if (!content) return;
    for (let at = 0, part = 0; at < content.byteLength || part === 0; at += CONTENT_PART_BYTES, part++) {
      yield;
      insertPart.run(j.id, part, content.subarray(at, at + CONTENT_PART_BYTES));
    }
  };
}

/**
 * The import thread, and the gate the main connection's writes wait at while it holds the lock.
 * `jobs`: a second connection (behind the same gate) that stores a push's job and content here:
 * posted to the thread, the content was copied twice while the push's body and rows were alive
 * (27–30 MiB more at a push's peak, docs/benchmarks.md "The import thread, seventh pass").
 */
export interface ImportOnThread {
  thread: ImportThread;
  gate: WriteGate;
  jobs?: ImportConnection;
}

/**
 * `committedLarge`: called after a commit that wrote a push's content or an import (the
 * write-ahead log grew by megabytes), so a checkpointer may copy it back soon.
 */
export function createSqliteJobStore(
  db: Database,
  s: Statements,
  apart?: ImportConnection | ImportOnThread,
  committedLarge: () => void = () => {},
  betweenSlices: () => void = () => {},
  bumps?: ExportBumps,
): JobStore {
  // Polling never reads the payload back (it can be 12 MB).
  const select = s.prepare<JobRow, [string]>(
    `SELECT ${COLUMNS.replace("payload", "NULL AS payload").replace("content", "NULL AS content")} FROM jobs WHERE id = ?`,
  );
  const recent = s.prepare<JobRow, [string, number]>(
    `SELECT ${COLUMNS.replace("payload", "NULL AS payload").replace("content", "NULL AS content")}
     FROM jobs WHERE project_id = ? ORDER BY seq DESC LIMIT ?`,
  );
  // One statement, so it is atomic: the subquery and the update see the same snapshot under the
  // write lock. A job is claimable only if no older unfinished job of its project exists.
  const claim = s.prepare<JobRow, [string, string, string, string]>(
    `UPDATE jobs SET status = 'running', run_id = ?, lease_until = ?, updated_at = ?, attempts = attempts + 1
     WHERE seq = (
       SELECT j.seq FROM jobs j
       WHERE j.status IN ('pending', 'running')
         AND (j.status = 'pending' OR j.lease_until IS NULL OR j.lease_until < ?)
         AND NOT EXISTS (
           SELECT 1 FROM jobs o
           WHERE o.project_id = j.project_id AND o.seq < j.seq AND o.status IN ('pending', 'running'))
       ORDER BY j.seq LIMIT 1)
     RETURNING ${COLUMNS}`,
  );
  const renew = s.prepare<never, [string, string, string]>(
    "UPDATE jobs SET lease_until = ? WHERE id = ? AND run_id = ? AND status = 'running'",
  );
  const finish = s.prepare<never, [string, Text, Text, string, string, string]>(
    `UPDATE jobs SET status = ?, summary = COALESCE(?, summary), error_message = COALESCE(?, error_message), payload = NULL, content = NULL,
       lease_until = NULL, updated_at = ?
     WHERE id = ? AND run_id = ? AND status = 'running'`,
  );
  const completion = createCompletion(s, bumps);
  const contentSize = s.prepare<{ parts: number | bigint; n: number | bigint | null }, [string]>(
    "SELECT count(*) AS parts, sum(length(bytes)) AS n FROM job_content_parts WHERE job_id = ?",
  );
  const contentPart = s.prepare<{ bytes: Uint8Array }, [string, number]>(
    "SELECT bytes FROM job_content_parts WHERE job_id = ? AND part = ?",
  );
  const dropContent = s.prepare<never, [string]>("DELETE FROM job_content_parts WHERE job_id = ?");
  /** The stored content, read part by part into one buffer; null when the job has none. */
  const readContent = (id: string): Uint8Array | null => {
    const size = contentSize.get(id);
    if (!size || size.n === null) return null;
    const out = new Uint8Array(Number(size.n));
    for (let part = 0, at = 0; part < Number(size.parts); part++) {
      const bytes = contentPart.get(id, part)?.bytes ?? new Uint8Array(0);
      out.set(bytes, at);
      at += bytes.byteLength;
    }
    return out;
  };
  const unfinishedCount = s.prepare<{ n: number | bigint }, []>(
    "SELECT count(*) AS n FROM jobs WHERE status IN ('pending', 'running')",
  );
  const release = s.prepare<never, [string]>(
    "UPDATE jobs SET lease_until = NULL, updated_at = ? WHERE status = 'running'",
  );

  const completeTx = db.transaction((id: string, runId: string, c: ImportCommit, now: string): boolean =>
    toEnd(completion(id, runId, c, now)),
  );
  const completeApart =
    apart &&
    ("thread" in apart
      ? createThreadCompletion(apart, committedLarge, betweenSlices, bumps)
      : createApartCompletion(apart, committedLarge, betweenSlices, bumps));
  const createTx = db.transaction(createJobInsert(s));
  const createApart =
    apart &&
    ("thread" in apart
      ? apart.jobs
        ? createApartJobInsert(apart.jobs, true)
        : createThreadJobInsert(apart)
      : createApartJobInsert(apart));
  const failTx = db.transaction((id: string, runId: string, message: string, now: string): boolean => {
    if (finish.run("failed", null, message, now, id, runId).changes === 0) return false;
    dropContent.run(id);
    return true;
  });

  return {
    async create(j) {
      if (createApart) await createApart(j);
      else createTx(j);
      committedLarge();
    },
    async get(id) {
      const row = select.get(id);
      return row ? toJob(row) : null;
    },
    async claimNext(runId, now, leaseUntil, held) {
      const row = claim.get(runId, leaseUntil, now, now);
      if (!row) return null;
      // A held job's content is in the caller's hands already (JobStore.claimNext).
      if (row.payload === null || held?.has(row.id)) return toJob(row, new Uint8Array(0));
      return toJob(row, readContent(row.id));
    },
    async renewLease(id, runId, leaseUntil) {
      return renew.run(leaseUntil, id, runId).changes > 0;
    },
    async complete(id, runId, commit, now) {
      if (completeApart) return completeApart(id, runId, commit, now);
      // IMMEDIATE takes the write lock up front, so a concurrent writer waits (busy_timeout)
      // instead of failing when this transaction upgrades from reading to writing.
      const done = completeTx.immediate(id, runId, commit, now);
      committedLarge();
      return done;
    },
    async fail(id, runId, message, now) {
      return failTx.immediate(id, runId, message, now);
    },
    async countUnfinished() {
      return Number(unfinishedCount.get()?.n ?? 0);
    },
    async listByProject(projectId, limit) {
      return recent.all(projectId, limit).map((r) => toJob(r));
    },
    async releaseLeases(now) {
      return release.run(now).changes;
    },
  };
}

/**
 * The import's transaction on its own connection, yielding every SLICE_MS: readers see nothing of
 * it until COMMIT, and a process killed meanwhile leaves nothing of it (SQLite rolls it back).
 */
function createApartCompletion(
  { db, s, gate }: ImportConnection,
  committed: () => void,
  betweenSlices: () => void,
  bumps?: ExportBumps,
) {
  const completion = createCompletion(s, bumps);
  return async (id: string, runId: string, c: ImportCommit, now: string): Promise<boolean> => {
    const release = await gate.acquire();
    try {
      db.run("BEGIN IMMEDIATE");
      try {
        const steps = completion(id, runId, c, now);
        let since = performance.now();
        for (;;) {
          const r = steps.next();
          if (r.done) {
            db.run(r.value ? "COMMIT" : "ROLLBACK");
            // The cache's 2 MiB go back to the allocator before the next push arrives, which
            // reuses them; the push's content is stored through a small cache (createApartJobInsert).
            db.run("PRAGMA shrink_memory");
            if (r.value) committed();
            return r.value;
          }
          if (performance.now() - since >= SLICE_MS) {
            betweenSlices();
            await nextTurn();
            since = performance.now();
          }
        }
      } catch (e) {
        rollback(db);
        throw e;
      }
    } finally {
      release();
    }
  };
}

/**
 * A push's job, stored on the import connection in one transaction that gives the event loop a
 * turn every SLICE_MS: a 12 MB content written in one block held every request for 50–200 ms
 * (docs/benchmarks.md, "Pushes off the event loop"). Stored before the 202 as before, or not at all.
 */
function createApartJobInsert({ db, s, gate }: ImportConnection, shrink = false): (j: Job) => Promise<void> {
  const steps = createJobInsertSteps(s);
  const cacheSize = pageCacheSize(db);
  return async (j) => {
    const release = await gate.acquire();
    // The content's pages are written once and not read again before its job: a small cache while
    // they are written, so they do not fill the connection's whole cache at the request's peak.
    db.run(`PRAGMA cache_size = -${STORE_CACHE_KIB}`);
    try {
      db.run("BEGIN IMMEDIATE");
      try {
        let since = performance.now();
        for (const _ of steps(j)) {
          if (performance.now() - since >= SLICE_MS) {
            await nextTurn();
            since = performance.now();
          }
        }
        db.run("COMMIT");
      } catch (e) {
        rollback(db);
        throw e;
      }
    } finally {
      db.run(`PRAGMA cache_size = ${cacheSize}`);
      release();
      // Its page cache, full of the content's pages, is not read again before the next push.
      if (shrink) db.run("PRAGMA shrink_memory");
    }
  };
}

/** KiB of page cache the import connection keeps while it stores a push's content. */
const STORE_CACHE_KIB = 256;

/** The connection's `cache_size` as set now (pages, or KiB when negative). */
const pageCacheSize = (db: Database): number =>
  Number((db.query("PRAGMA cache_size").get() as { cache_size: number | bigint }).cache_size);

/**
 * Statements whose `run` queues on the import thread, returning nothing: a completion's writes
 * run statements and read no result back (the one result it needs, FINISH's, is asked apart).
 */
function threadStatements(thread: ImportThread): Statements {
  return {
    prepare<Row, Params extends SQLQueryBindings[]>(sql: string): Statement<Row, Params> {
      return { run: (...params: Params) => thread.send(sql, params) } as unknown as Statement<Row, Params>;
    },
    finalizeAll() {},
  };
}

/** Statements queued on the import thread ahead of its work, at most: the rest wait here. */
export const THREAD_AHEAD = 4;

/**
 * The import's transaction on the import thread: this thread only builds each chunk's parameters
 * (giving the event loop a turn every SLICE_MS), the thread runs the statements and the COMMIT.
 * Readers see nothing of it until COMMIT, and a process killed meanwhile leaves nothing of it.
 */
function createThreadCompletion(
  link: ImportOnThread,
  committed: () => void,
  betweenSlices: () => void,
  bumps?: ExportBumps,
) {
  const { thread } = link;
  const writes = createCompletionWrites(threadStatements(thread), thread.each, bumps);
  return async (id: string, runId: string, c: ImportCommit, now: string): Promise<boolean> => {
    const done = await onThread(link, async () => {
      if ((await thread.run(FINISH, finishParams(id, runId, c, now))) === 0) return false;
      let since = performance.now();
      let collected = since;
      for (const _ of writes(id, c, now)) {
        // Each chunk, not each slice: within a slice this thread built chunk after chunk ahead of
        // the thread, each message alive here, in flight and there at once (a push's peak 4–8 MiB
        // higher, docs/benchmarks.md "The import stall, ninth pass"). A wait is a turn of the loop.
        if (thread.queued() > THREAD_AHEAD) {
          await thread.drained(THREAD_AHEAD);
          since = performance.now();
        }
        // The young collection keeps its pace (what this thread built and sent is garbage now).
        if (performance.now() - collected >= SLICE_MS) {
          betweenSlices();
          collected = performance.now();
        }
        if (performance.now() - since >= SLICE_MS) {
          await nextTurn();
          since = performance.now();
        }
      }
      return true;
    });
    if (done) committed();
    return done;
  };
}

/**
 * A push's job, stored on the import thread: its 12 MB content is written there (and its COMMIT
 * runs there), not on the thread that answers requests. Stored before the 202 as before.
 */
function createThreadJobInsert(link: ImportOnThread): (j: Job) => Promise<void> {
  const insert = createJobInsert(threadStatements(link.thread));
  return async (j) => {
    await onThread(link, async () => {
      insert(j);
      return true;
    });
  };
}

/**
 * Runs `work` in one transaction on the import thread, holding the gate meanwhile: committed when
 * it resolves true, rolled back when it resolves false or fails.
 */
async function onThread({ thread, gate }: ImportOnThread, work: () => Promise<boolean>): Promise<boolean> {
  const release = await gate.acquire();
  try {
    await thread.begin();
    try {
      const commit = await work();
      if (commit) await thread.commit();
      else await thread.rollback();
      return commit;
    } catch (e) {
      await thread.rollback();
      throw e;
    }
  } finally {
    release();
  }
}

/** Ends the open transaction, if SQLite has not ended it already (it does on some errors). */
function rollback(db: Database): void {
  try {
    db.run("ROLLBACK");
  } catch {
    // No transaction was open any more.
  }
}
