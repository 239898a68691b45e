/** The organization's projects, each with a coverage bar per language and a way to continue translating. */
import { useState } from "preact/hooks";
import { api, apiData, messageOf } from "../api.ts";
import { CoverageBar, translatedPercent } from "../base/coverage-bar.tsx";
import { Field, Notice } from "../base/field.tsx";
import { Legend } from "../base/legend.tsx";
import { Shell } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { continueHref, coverageOf } from "../projects/coverage.ts";
import { membership } from "../session.ts";
import type { LanguageCoverage, Project } from "../types.ts";

interface ProjectWithCoverage {
  project: Project;
  coverage: LanguageCoverage[];
}

async function loadProjects(orgId: string): Promise<ProjectWithCoverage[]> {
  const projects = await apiData<Project[]>("GET", `/orgs/${encodeURIComponent(orgId)}/projects`);
  return Promise.all(projects.map(async (project) => ({ project, coverage: await coverageOf(project) })));
}

function ProjectCard({ project, coverage }: ProjectWithCoverage) {
  const titleId = `project-${project.id}`;
  return (
    <section class="panel project-card" aria-labelledby={titleId}>
      <h2 id={titleId}>
        <a href={`/projects/${encodeURIComponent(project.id)}`}>{project.name}</a>
      </h2>
      <p class="hint">
        Base language {project.baseLanguage} · {coverage[0]?.referenceKeys ?? 0} keys
      </p>
      {coverage
        .filter((c) => c.language !== project.baseLanguage)
        .map((c) => (
          <div class="lang-row with-percent" key={c.language}>
            <strong>{c.language}</strong>
            <CoverageBar coverage={c} />
            {/* The bar's label already says it to screen readers. */}
            <span class="figures" aria-hidden="true">
              {translatedPercent(c)}%
            </span>
            {c.missing > 0 ? (
              <a
                href={continueHref(project.id, c.language)}
                aria-label={`Continue translating ${project.name} into ${c.language} (${c.missing} missing)`}
              >
                Continue ({c.missing})
              </a>
            ) : (
              <span class="figures">{c.referenceKeys === 0 ? "No strings yet" : "Complete"}</span>
            )}
          </div>
        ))}
    </section>
  );
}

function NewProject({ orgId, onCreated }: { orgId: string; onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [base, setBase] = useState("en");
  const [languages, setLanguages] = useState("");
  const [error, setError] = useState("");
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        New project
      </button>
    );
  return (
    <form
      class="panel"
      onSubmit={async (e) => {
        e.preventDefault();
        try {
          await api("POST", `/orgs/${encodeURIComponent(orgId)}/projects`, {
            name,
            baseLanguage: base,
            languages: languages
              .split(/[\s,]+/)
              .map((l) => l.trim())
              .filter(Boolean),
          });
          setOpen(false);
          setName("");
          setLanguages("");
          onCreated();
        } catch (err) {
          setError(messageOf(err));
        }
      }}
    >
      <h2>New project</h2>
      <Field label="Project name" required value={name} onInput={setName} />
      <Field
        label="Base language"
        required
        value={base}
        onInput={setBase}
        hint="A locale code such as en or pt-BR."
      />
      <Field
        label="Languages"
        value={languages}
        onInput={setLanguages}
        hint="Comma-separated, e.g. fr, de, ar."
      />
      <Notice>{error}</Notice>
      <div class="row">
        <button type="submit" class="primary">
          Create project
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function PageDashboard() {
  const org = membership.value;
  const projects = useAsync(() => (org ? loadProjects(org.orgId) : Promise.resolve([])), [org?.orgId]);
  const manage = org?.role === "owner" || org?.role === "admin";
  return (
    <Shell title="Projects">
      <div class="row">
        <h1>Projects{org ? ` of ${org.orgName}` : ""}</h1>
        <div class="spacer" />
        {org && manage && <NewProject orgId={org.orgId} onCreated={projects.reload} />}
      </div>
      <Legend />
      <Notice>{projects.error}</Notice>
      {!org && <p>You are not a member of any organization yet. Ask an administrator for an invitation.</p>}
      {projects.loading && !projects.data && <p role="status">Loading projects…</p>}
      {projects.data?.length === 0 && <p>No projects yet.</p>}
      <div class="projects">
        {(projects.data ?? []).map((p) => (
          <ProjectCard key={p.project.id} {...p} />
        ))}
      </div>
    </Shell>
  );
}
