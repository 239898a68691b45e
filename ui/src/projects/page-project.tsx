/** A project: languages with coverage, upload, jobs, activity and downloads. */
import { useCallback, useState } from "preact/hooks";
import { CoverageBar, coverageWords } from "../base/coverage-bar.tsx";
import { Notice } from "../base/field.tsx";
import { Legend } from "../base/legend.tsx";
import { Shell } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { can } from "../session.ts";
import { ActivityPanel } from "./activity-panel.tsx";
import { continueHref, coverageOf } from "./coverage.ts";
import { DownloadsPanel } from "./downloads-panel.tsx";
import { JobsPanel } from "./jobs-panel.tsx";
import { loadProject } from "./load-project.ts";
import { UploadPanel } from "./upload-panel.tsx";

export function PageProject({ projectId }: { projectId: string }) {
  const [refresh, setRefresh] = useState(0);
  const loaded = useAsync(async () => {
    const project = await loadProject(projectId);
    // The page stays useful (upload, downloads) when the coverage cannot be read.
    return { project, coverage: await coverageOf(project).catch(() => []) };
  }, [projectId, refresh]);
  const onImported = useCallback(() => setRefresh((n) => n + 1), []);
  const project = loaded.data?.project;
  return (
    <Shell title={project?.name ?? "Project"}>
      <Notice>{loaded.error}</Notice>
      {project && (
        <>
          <div class="row">
            <h1>{project.name}</h1>
            <div class="spacer" />
            <a class="button primary" href={`/projects/${encodeURIComponent(project.id)}/editor`}>
              Open editor
            </a>
          </div>
          <section class="panel" aria-labelledby="languages-title">
            <h2 id="languages-title">Languages</h2>
            <Legend />
            {(loaded.data?.coverage ?? []).map((c) => (
              <div class="lang-row" key={c.language}>
                <strong>
                  {c.language}
                  {c.language === project.baseLanguage && <span class="hint"> base</span>}
                </strong>
                <CoverageBar coverage={c} />
                <span class="figures">
                  <span class="sr-only">{coverageWords(c)}</span>
                  <span aria-hidden="true">
                    {c.referenceKeys - c.missing}/{c.referenceKeys}
                    {c.warnings ? ` · ${c.warnings} warnings` : ""}
                  </span>{" "}
                  {c.language !== project.baseLanguage && c.missing > 0 && (
                    <a href={continueHref(project.id, c.language)}>Continue translating {c.language}</a>
                  )}
                </span>
              </div>
            ))}
          </section>
          {(project.can ? project.can.import : can("import")) && (
            <UploadPanel project={project} onImported={onImported} />
          )}
          <div class="two-columns">
            <JobsPanel projectId={project.id} refresh={refresh} />
            <ActivityPanel projectId={project.id} refresh={refresh} />
          </div>
          <DownloadsPanel project={project} />
        </>
      )}
    </Shell>
  );
}
