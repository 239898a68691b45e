/**
 * Uploading a JSON file as a push: a dry run first shows what would be created, updated and
 * deleted; confirming starts the import job, whose progress is shown until it ends.
 */
import { useEffect, useId, useState } from "preact/hooks";
import { api, apiData, messageOf } from "../api.ts";
import { Notice } from "../base/field.tsx";
import { UploadIcon } from "../base/icons.tsx";
import { type ImportPreview, type Job, type Project, STATUS_LABEL, STATUSES, type Status } from "../types.ts";
import { jobWords, unfinished } from "./jobs-panel.tsx";

export function UploadPanel({ project, onImported }: { project: Project; onImported: () => void }) {
  const id = useId();
  const [content, setContent] = useState<string | null>(null);
  const [fileName, setFileName] = useState("");
  const [language, setLanguage] = useState(project.baseLanguage);
  const [importMode, setMode] = useState<"merge" | "replace">("merge");
  // Approving (or sending back) is reviewing: a person who may not review a language imports its
  // strings as draft or pending, pending unless they choose.
  const statusesFor = (l: string) =>
    (project.can?.review.includes(l) ?? false)
      ? STATUSES
      : STATUSES.filter((s) => s === "draft" || s === "pending");
  const defaultStatus = (l: string): Status => (project.can?.review.includes(l) ? "approved" : "pending");
  const [status, setStatus] = useState<Status>(defaultStatus(project.baseLanguage));
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const path = `/projects/${encodeURIComponent(project.id)}/imports`;
  const request = (dryRun: boolean) => ({ content, language, importMode, status, dryRun });

  useEffect(() => {
    if (!job || !unfinished(job)) return;
    const timer = setTimeout(async () => {
      try {
        const next = await apiData<Job>(
          "GET",
          `/projects/${encodeURIComponent(project.id)}/jobs/${encodeURIComponent(job.id)}`,
        );
        setJob(next);
        if (!unfinished(next)) onImported();
      } catch (err) {
        setError(messageOf(err));
      }
    }, 400);
    return () => clearTimeout(timer);
  }, [job, onImported, project.id]);

  const reset = () => {
    setPreview(null);
    setJob(null);
    setError("");
  };

  return (
    <section class="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Upload a JSON file</h2>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          if (content === null) return;
          setBusy(true);
          reset();
          try {
            setPreview(await apiData<ImportPreview>("POST", path, request(true)));
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <div class="row">
          <div class="field">
            <label for={`${id}-file`}>JSON file</label>
            <input
              id={`${id}-file`}
              type="file"
              accept=".json,application/json"
              required
              onChange={async (e) => {
                const file = (e.currentTarget as HTMLInputElement).files?.[0];
                reset();
                setFileName(file?.name ?? "");
                setContent(file ? await file.text() : null);
              }}
            />
          </div>
          <div class="field">
            <label for={`${id}-language`}>Language</label>
            <select
              id={`${id}-language`}
              value={language}
              onChange={(e) => {
                const next = (e.currentTarget as HTMLSelectElement).value;
                setLanguage(next);
                if (!statusesFor(next).includes(status)) setStatus(defaultStatus(next));
                reset();
              }}
            >
              {project.languages.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for={`${id}-mode`}>Mode</label>
            <select
              id={`${id}-mode`}
              value={importMode}
              onChange={(e) => {
                setMode((e.currentTarget as HTMLSelectElement).value as "merge");
                reset();
              }}
            >
              <option value="merge">Merge (keep other keys)</option>
              <option value="replace">Replace (delete keys not in the file)</option>
            </select>
          </div>
          <div class="field">
            <label for={`${id}-status`}>Status of imported strings</label>
            <select
              id={`${id}-status`}
              value={status}
              onChange={(e) => {
                setStatus((e.currentTarget as HTMLSelectElement).value as Status);
                reset();
              }}
            >
              {statusesFor(language).map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" disabled={busy || content === null}>
          <UploadIcon /> Preview import
        </button>
      </form>
      <Notice>{error}</Notice>
      {preview && !job && (
        <div class="preview" role="status">
          <p>
            Importing <strong>{fileName}</strong> into <strong>{preview.language}</strong> (
            {preview.importMode}) would change:
          </p>
          <dl class="figures-list">
            <dt>Rows in the file</dt>
            <dd>{preview.rowCount}</dd>
            <dt>To create</dt>
            <dd>{preview.toCreate}</dd>
            <dt>To update</dt>
            <dd>{preview.toUpdate}</dd>
            {preview.unchanged !== undefined && (
              <>
                <dt>Unchanged</dt>
                <dd>{preview.unchanged}</dd>
              </>
            )}
            {preview.toDelete !== undefined && (
              <>
                <dt>To delete</dt>
                <dd>{preview.toDelete}</dd>
              </>
            )}
          </dl>
          <div class="row">
            <button
              type="button"
              class="primary"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  const accepted = await api<{ jobId?: string; data?: { jobId: string } }>(
                    "POST",
                    path,
                    request(false),
                  );
                  const jobId = accepted.jobId ?? accepted.data?.jobId ?? "";
                  setJob({ id: jobId, status: "pending", createdAt: "", updatedAt: "" });
                } catch (err) {
                  setError(messageOf(err));
                } finally {
                  setBusy(false);
                }
              }}
            >
              Confirm import
            </button>
            <button type="button" onClick={reset}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {job && (
        <div role="status" aria-live="polite" class="job-progress">
          {unfinished(job) ? (
            <progress
              aria-label="Import progress"
              max={job.progress?.total ?? undefined}
              value={job.progress?.done ?? undefined}
            />
          ) : null}
          <p>Import job {jobWords(job)}</p>
        </div>
      )}
    </section>
  );
}
