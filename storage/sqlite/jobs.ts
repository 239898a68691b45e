import type { Database } from "bun:sqlite";
import type { ImportCommit, JobStore } from "../../core/ports.ts";
import type { ImportPayload, ImportSummary, Job, JobStatus } from "../../core/types.ts";
import { createExportVersions } from "./export-versions.ts";
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

const toJob = (r: JobRow): Job => ({
  id: r.id,
  orgId: r.org_id,
  projectId: r.project_id,
  type: r.type,
  status: r.status,
  runId: r.run_id,
  summary: JSON.parse(r.summary) as ImportSummary,
  errorMessage: r.error_message,
  payload: r.payload === null ? null : payloadOf(r.payload, r.content),
  leaseUntil: r.lease_until,
  attempts: Number(r.attempts),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Rows written before migration 2 still carry the content inside the payload's JSON. */
function payloadOf(json: string, content: string | null): ImportPayload {
  const payload = JSON.parse(json) as ImportPayload;
  return content === null ? payload : { ...payload, content };
}

const COLUMNS = `id, org_id, project_id, type, status, run_id, summary, error_message, payload, lease_until,
  created_at, updated_at, content, attempts`;

type Text = string | null;

/**
 * Completes an import job in the caller's transaction, one chunk of writes per step: the job is
 * marked completed first (false, and nothing written, when another run took it over).
 */
function createCompletion(s: Statements) {
  const finish = s.prepare<never, [string, string, string, string]>(
    `UPDATE jobs SET status = 'completed', summary = ?, payload = NULL, content = NULL, lease_until = NULL,
       updated_at = ? WHERE id = ? AND run_id = ? AND status = 'running'`,
  );
  const imports = createImportWriter(s);
  const writer = createRecordWriter(s);
  const versions = createExportVersions(s);
  return function* complete(
    id: string,
    runId: string,
    c: ImportCommit,
    now: string,
  ): Generator<void, boolean> {
    if (finish.run(JSON.stringify(c.summary), now, id, runId).changes === 0) return false;
    yield* imports.steps(c, now);
    if (c.writes.length > 0 || c.deleteIds.length > 0) versions.bump(c.projectId, [c.language]);
    if (c.audit) writer.activity({ ...c.audit.activity, at: now });
    return true;
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

export function createSqliteJobStore(db: Database, s: Statements, apart?: ImportConnection): JobStore {
  const insert = s.prepare<
    never,
    [string, string, string, string, string, string, string, Text, Text, Text, string, string, Text, number]
  >(`INSERT INTO jobs (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
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
  const completion = createCompletion(s);
  const unfinishedCount = s.prepare<{ n: number | bigint }, []>(
    "SELECT count(*) AS n FROM jobs WHERE status IN ('pending', 'running')",
  );
  const release = s.prepare<never, [string]>(
    "UPDATE jobs SET lease_until = NULL, updated_at = ? WHERE status = 'running'",
  );

  const completeTx = db.transaction((id: string, runId: string, c: ImportCommit, now: string): boolean =>
    toEnd(completion(id, runId, c, now)),
  );
  const completeApart = apart && createApartCompletion(apart);

  return {
    async create(j) {
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
        j.payload?.content ?? null,
        j.attempts,
      );
    },
    async get(id) {
      const row = select.get(id);
      return row ? toJob(row) : null;
    },
    async claimNext(runId, now, leaseUntil) {
      const row = claim.get(runId, leaseUntil, now, now);
      return row ? toJob(row) : null;
    },
    async renewLease(id, runId, leaseUntil) {
      return renew.run(leaseUntil, id, runId).changes > 0;
    },
    async complete(id, runId, commit, now) {
      if (completeApart) return completeApart(id, runId, commit, now);
      // IMMEDIATE takes the write lock up front, so a concurrent writer waits (busy_timeout)
      // instead of failing when this transaction upgrades from reading to writing.
      return completeTx.immediate(id, runId, commit, now);
    },
    async fail(id, runId, message, now) {
      return finish.run("failed", null, message, now, id, runId).changes > 0;
    },
    async countUnfinished() {
      return Number(unfinishedCount.get()?.n ?? 0);
    },
    async listByProject(projectId, limit) {
      return recent.all(projectId, limit).map(toJob);
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
function createApartCompletion({ db, s, gate }: ImportConnection) {
  const completion = createCompletion(s);
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
            return r.value;
          }
          if (performance.now() - since >= SLICE_MS) {
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

/** Ends the open transaction, if SQLite has not ended it already (it does on some errors). */
function rollback(db: Database): void {
  try {
    db.run("ROLLBACK");
  } catch {
    // No transaction was open any more.
  }
}
