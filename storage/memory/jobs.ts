import type { ImportCommit, JobStore } from "../../core/ports.ts";
import type { RecordState } from "../../core/records/types.ts";
import type { Job } from "../../core/types.ts";
import { addHistory, entryOf, type RecordLog, upsertRecord } from "./record-log.ts";
import { languageRows, type TranslationTable, writableLanguageRows } from "./translation-table.ts";

const copy = (j: Job): Job => ({ ...j, summary: { ...j.summary }, payload: j.payload && { ...j.payload } });

const unfinished = (j: Job) => j.status === "pending" || j.status === "running";

/** A finished job no longer needs its payload (the push content) nor a lease. */
function finish(j: Job, status: "completed" | "failed", now: string) {
  j.status = status;
  j.payload = null;
  j.leaseUntil = null;
  j.updatedAt = now;
}

export function createMemoryJobStore(table: TranslationTable, log: RecordLog): JobStore {
  // A Map iterates in insertion order: the order of creation, which claiming follows.
  const jobs = new Map<string, Job>();
  const held = (id: string, runId: string) => {
    const j = jobs.get(id);
    return j && j.status === "running" && j.runId === runId ? j : null;
  };

  function apply(c: ImportCommit, now: string) {
    // Taken as writable (which moves the export version) only when something is deleted; each
    // write takes it itself.
    const rows =
      c.deleteIds.length > 0
        ? writableLanguageRows(table, c.projectId, c.language)
        : new Map(languageRows(table, c.projectId, c.language));
    const a = c.audit;
    const doomed = new Map(c.deleteIds.map((id, i) => [id, i]));
    for (const [key, t] of rows) {
      const i = doomed.get(t.id);
      if (i === undefined) continue;
      rows.delete(key);
      if (a) {
        const entry = { ...entryOf({ ...a.activity, at: now }, t), jobId: a.jobId };
        addHistory(log, {
          ...entry,
          oldValue: t.value,
          oldStatus: t.status,
          newValue: null,
          newStatus: null,
          version: null,
        });
      }
    }
    c.writes.forEach((w, i) => {
      const write = {
        ...w,
        id: w.id, // a new row's id is a getter (core/import-plan.ts), which a spread leaves out
        projectId: c.projectId,
        language: c.language,
        // A copy: the audit shares one empty list between the writes that have no warning.
        warnings: [...(a?.warnings[i] ?? [])],
        actor: a?.actor ?? null,
      };
      const record = upsertRecord(table, write, now);
      if (!a) return;
      const old = a.previous[i] ?? null;
      addHistory(log, {
        ...entryOf({ ...a.activity, at: now }, record),
        jobId: a.jobId,
        oldValue: old?.value ?? null,
        oldStatus: old?.status ?? null,
        newValue: record.value,
        newStatus: record.status,
        version: record.version,
      });
    });
    if (a) {
      const byId = new Map<string, RecordState>();
      for (const l of table.get(c.projectId)?.values() ?? []) for (const r of l.values()) byId.set(r.id, r);
      for (const r of a.rechecks) {
        const record = byId.get(r.id);
        if (record) record.warnings = r.warnings.map((x) => ({ ...x }));
      }
      log.activity.push({ ...a.activity, detail: { ...a.activity.detail } });
    }
  }

  return {
    async create(job) {
      if (jobs.has(job.id)) throw new Error(`Job ${job.id} already exists`);
      const stored = copy(job);
      // Its own bytes: the caller may release the content once the job is stored (JobStore.create).
      if (stored.payload) stored.payload.content = stored.payload.content.slice();
      jobs.set(job.id, stored);
    },
    async get(id) {
      const j = jobs.get(id);
      return j ? { ...copy(j), payload: null } : null;
    },
    async claimNext(runId, now, leaseUntil, held) {
      // Only the oldest unfinished job of each project is a candidate.
      const seen = new Set<string>();
      for (const j of jobs.values()) {
        if (!unfinished(j) || seen.has(j.projectId)) continue;
        seen.add(j.projectId);
        const claimable = j.status === "pending" || j.leaseUntil === null || j.leaseUntil < now;
        if (!claimable) continue;
        j.status = "running";
        j.runId = runId;
        j.attempts++;
        j.leaseUntil = leaseUntil;
        j.updatedAt = now;
        const claimed = copy(j);
        if (claimed.payload && held?.has(j.id)) claimed.payload.content = new Uint8Array(0);
        return claimed;
      }
      return null;
    },
    async renewLease(id, runId, leaseUntil) {
      const j = held(id, runId);
      if (j) j.leaseUntil = leaseUntil;
      return j !== null;
    },
    async complete(id, runId, commit, now) {
      const j = held(id, runId);
      if (!j) return false;
      apply(commit, now);
      j.summary = { ...commit.summary };
      finish(j, "completed", now);
      return true;
    },
    async fail(id, runId, message, now) {
      const j = held(id, runId);
      if (!j) return false;
      j.errorMessage = message;
      finish(j, "failed", now);
      return true;
    },
    async listByProject(projectId, limit) {
      // The map keeps creation order; the newest are last.
      const mine = [...jobs.values()].filter((j) => j.projectId === projectId);
      return mine
        .slice(-limit)
        .reverse()
        .map((j) => ({ ...copy(j), payload: null }));
    },
    async countUnfinished() {
      let n = 0;
      for (const j of jobs.values()) if (unfinished(j)) n++;
      return n;
    },
    async releaseLeases(now) {
      let n = 0;
      for (const j of jobs.values()) {
        if (j.status !== "running") continue;
        j.leaseUntil = null;
        j.updatedAt = now;
        n++;
      }
      return n;
    },
  };
}
