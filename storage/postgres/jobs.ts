import type { Sql, TransactionSql } from "postgres";
import { encodeText } from "../../core/json-bytes.ts";
import type { ImportCommit, JobStore } from "../../core/ports.ts";
import type { ImportPayload, ImportSummary, Job, JobStatus } from "../../core/types.ts";
import { type DbRow, iso, isoOrNull, num, str, strOrNull } from "./convert.ts";
import { copyCreations } from "./copy-creations.ts";
import { bumpExportVersions } from "./export-versions.ts";
import { deletionEntries, insertActivity, setWarnings, upsertWrites, warningsJson } from "./record-writes.ts";

/**
 * The content is stored as text (Postgres keeps a large value out of line, so updating the job's
 * other columns does not copy it); rows written before migration 2 carry it inside the payload's JSON.
 */
function payloadOf(json: string, content: unknown): ImportPayload {
  const payload = JSON.parse(json) as Omit<ImportPayload, "content"> & { content?: string };
  const text = content === null || content === undefined ? (payload.content ?? "") : str(content);
  return { ...payload, content: encodeText(text) };
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

const toJob = (r: DbRow): Job => ({
  id: str(r.id),
  orgId: str(r.org_id),
  projectId: str(r.project_id),
  type: "import",
  status: str(r.status) as JobStatus,
  runId: str(r.run_id),
  summary: JSON.parse(str(r.summary)) as ImportSummary,
  errorMessage: strOrNull(r.error_message),
  payload: r.payload === null ? null : payloadOf(str(r.payload), r.content),
  leaseUntil: isoOrNull(r.lease_until),
  attempts: num(r.attempts),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** Applies one import's writes and deletes with a constant number of statements, whatever its size. */
async function applyCommit(tx: TransactionSql, c: ImportCommit, now: string): Promise<void> {
  const a = c.audit;
  const ctx = {
    projectId: c.projectId,
    actor: a?.actor ?? null,
    eventId: a?.activity.id ?? "",
    action: "import",
    jobId: a?.jobId ?? null,
    at: now,
    history: a !== undefined,
  };
  if (c.deleteIds.length > 0) {
    await tx`
      DELETE FROM translations
      WHERE id = ANY (${tx.array(c.deleteIds)}::text[])
        AND project_id = ${c.projectId} AND language = ${c.language}`;
    if (a) {
      const rows = c.deleteIds.flatMap((id, i) => {
        const d = a.deleted[i];
        return d ? [{ id, key: d.key, language: c.language, value: d.value, status: d.status }] : [];
      });
      await deletionEntries(tx, ctx, rows);
    }
  }
  // An existing row keeps its id: the conflict updates it in place.
  const writes = c.writes.map((w, i) => ({
    ...w,
    id: w.id, // a new row's id is a getter (core/import-plan.ts), which a spread leaves out
    language: c.language,
    warnings: warningsJson(a?.warnings[i]),
    old: a?.previous[i] ?? null,
  }));
  // The rows the plan found absent are created by COPY, unless a racing writer created one of them.
  const created = a ? writes.filter((w) => w.old === null) : [];
  if (created.length > 0 && (await copyCreations(tx, ctx, created))) {
    await upsertWrites(
      tx,
      ctx,
      writes.filter((w) => w.old !== null),
    );
  } else await upsertWrites(tx, ctx, writes);
  if (a) {
    await setWarnings(tx, a.rechecks);
    await insertActivity(tx, { ...a.activity, at: now });
  }
  if (c.writes.length > 0 || c.deleteIds.length > 0) await bumpExportVersions(tx, c.projectId, [c.language]);
}

/** The length of a lease the caller expressed in its own clock's time. */
const leaseMs = (now: string, leaseUntil: string) => Date.parse(leaseUntil) - Date.parse(now);

export function createJobStore(sql: Sql): JobStore {
  return {
    async create(j) {
      await sql`
        INSERT INTO jobs (id, org_id, project_id, type, status, run_id, summary, error_message,
                          payload, lease_until, created_at, updated_at, content, attempts)
        VALUES (${j.id}, ${j.orgId}, ${j.projectId}, ${j.type}, ${j.status}, ${j.runId},
                ${JSON.stringify(j.summary)}, ${j.errorMessage},
                ${j.payload === null ? null : JSON.stringify({ ...j.payload, content: undefined })}, ${j.leaseUntil},
                ${j.createdAt}, ${j.updatedAt}, ${j.payload ? utf8.decode(j.payload.content) : null}, ${j.attempts})`;
    },
    async get(id) {
      // Polling never reads the payload back (it can be 12 MB).
      const [row] = await sql`
        SELECT id, org_id, project_id, type, status, run_id, summary, error_message, NULL AS payload,
               lease_until, attempts, created_at, updated_at
        FROM jobs WHERE id = ${id}`;
      return row ? toJob(row) : null;
    },
    async claimNext(runId, now, leaseUntil, held) {
      // Leases are compared with and measured from the database's clock (now()): the instances
      // sharing the database may disagree about the time, the database does not.
      // A running job without a lease was released at start-up (releaseLeases) and is claimable.
      // SKIP LOCKED lets racing instances pass over a job another one is claiming; a job whose
      // row changed meanwhile is re-checked against the WHERE clause before it is taken.
      const [row] = await sql`
        WITH candidate AS (
          SELECT j.id FROM jobs j
          WHERE j.status IN ('pending', 'running')
            AND (j.status = 'pending' OR j.lease_until IS NULL OR j.lease_until < now())
            AND NOT EXISTS (
              SELECT 1 FROM jobs older
              WHERE older.project_id = j.project_id AND older.seq < j.seq
                AND older.status IN ('pending', 'running'))
          ORDER BY j.seq
          LIMIT 1
          FOR UPDATE SKIP LOCKED
        )
        UPDATE jobs SET status = 'running', run_id = ${runId}, attempts = jobs.attempts + 1,
                        lease_until = now() + ${leaseMs(now, leaseUntil)}::double precision * interval '1 millisecond',
                        updated_at = ${now}
        FROM candidate WHERE jobs.id = candidate.id
        RETURNING jobs.id, jobs.org_id, jobs.project_id, jobs.status, jobs.run_id, jobs.summary,
          jobs.error_message, jobs.payload, jobs.lease_until, jobs.attempts, jobs.created_at, jobs.updated_at,
          CASE WHEN jobs.id = ANY (${sql.array([...(held ?? [])])}::text[]) THEN '' ELSE jobs.content END AS content`;
      return row ? toJob(row) : null;
    },
    async renewLease(id, runId, leaseUntil, now) {
      const result = await sql`
        UPDATE jobs SET lease_until = now() + ${leaseMs(now, leaseUntil)}::double precision * interval '1 millisecond'
        WHERE id = ${id} AND run_id = ${runId} AND status = 'running'`;
      return result.count > 0;
    },
    async complete(id, runId, commit, now) {
      return sql.begin(async (tx) => {
        // Locking the job row first means a concurrent takeover waits for this commit or wins.
        const [held] = await tx`
          SELECT 1 FROM jobs WHERE id = ${id} AND run_id = ${runId} AND status = 'running' FOR UPDATE`;
        if (!held) return false;
        await applyCommit(tx, commit, now);
        await tx`
          UPDATE jobs SET status = 'completed', summary = ${JSON.stringify(commit.summary)},
                          payload = NULL, content = NULL, lease_until = NULL, updated_at = ${now}
          WHERE id = ${id}`;
        return true;
      });
    },
    async fail(id, runId, message, now) {
      const result = await sql`
        UPDATE jobs SET status = 'failed', error_message = ${message}, payload = NULL, content = NULL,
                        lease_until = NULL, updated_at = ${now}
        WHERE id = ${id} AND run_id = ${runId} AND status = 'running'`;
      return result.count > 0;
    },
    async listByProject(projectId, limit) {
      const rows = await sql`
        SELECT id, org_id, project_id, type, status, run_id, summary, error_message, NULL AS payload,
               lease_until, attempts, created_at, updated_at
        FROM jobs WHERE project_id = ${projectId} ORDER BY seq DESC LIMIT ${limit}`;
      return rows.map(toJob);
    },
    async countUnfinished() {
      // The partial index jobs_unfinished holds exactly these rows.
      const [row] = await sql`SELECT count(*)::int AS n FROM jobs WHERE status IN ('pending', 'running')`;
      return num(row?.n ?? 0);
    },
    async releaseLeases(now) {
      const result = await sql`
        UPDATE jobs SET lease_until = NULL, updated_at = ${now} WHERE status = 'running'`;
      return result.count;
    },
  };
}
