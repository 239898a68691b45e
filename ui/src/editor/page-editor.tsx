/** The editor page: filters, bulk actions, the grid, the history panel and the dialogs. */
import { useEffect, useMemo, useState } from "preact/hooks";
import { Notice } from "../base/field.tsx";
import { KeyboardIcon } from "../base/icons.tsx";
import { Shell } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { loadProject } from "../projects/load-project.ts";
import { route, setQuery } from "../router.ts";
import { canEdit } from "../session.ts";
import { ConflictDialog } from "./conflict-dialog.tsx";
import { EditorGrid } from "./editor-grid.tsx";
import { createEditor, type Editor } from "./editor-state.ts";
import { FilterBar } from "./filter-bar.tsx";
import { filtersQuery, readFilters } from "./filters.ts";
import { HistoryPanel } from "./history-panel.tsx";
import { KeysBar } from "./keys-panel.tsx";
import { ShortcutsDialog } from "./shortcuts-dialog.tsx";

function BulkBar({ editor }: { editor: Editor }) {
  const count = editor.selected.value.size;
  if (count === 0) return null;
  const language = editor.filters.language;
  return (
    <section class="bulk row" aria-label="Bulk actions">
      <strong>{count} selected</strong>
      {editor.mayReview(language) ? (
        <>
          <button type="button" onClick={() => void editor.bulkStatus("approved")}>
            Approve in {language}
          </button>
          <button type="button" onClick={() => void editor.bulkStatus("needs_review")}>
            Mark needs review in {language}
          </button>
        </>
      ) : (
        <span class="hint">Only reviewers of {language} can approve.</span>
      )}
      <button
        type="button"
        onClick={() => {
          editor.selected.value = new Set();
        }}
      >
        Clear selection
      </button>
    </section>
  );
}

export function PageEditor({ projectId }: { projectId: string }) {
  const project = useAsync(() => loadProject(projectId), [projectId]);
  const [shortcuts, setShortcuts] = useState(false);
  const query = route.value.query;
  const filters = project.data
    ? readFilters(query, project.data, (l) =>
        project.data?.can ? project.data.can.edit.includes(l) : canEdit(l),
      )
    : null;
  const filterKey = filters ? filtersQuery(filters).toString() : "";
  const editor = useMemo(
    () => (project.data && filters ? createEditor(project.data, filters) : null),
    [project.data, filterKey],
  );
  useEffect(() => {
    if (!editor) return;
    // The URL always names the view, so it can be shared as it is.
    if (filterKey !== query.toString()) setQuery(new URLSearchParams(filterKey));
    void editor.load();
    return () => editor.stop();
  }, [editor]);
  const p = project.data;
  return (
    <Shell title={p ? `Editor · ${p.name}` : "Editor"}>
      <Notice>{project.error}</Notice>
      {p && editor && filters && (
        <>
          <div class="row">
            <h1>
              <a href={`/projects/${encodeURIComponent(p.id)}`}>{p.name}</a> · Editor
            </h1>
            <div class="spacer" />
            {/* Seen as well as heard: a save, a move past the last string, a bulk change. */}
            <span class="announcement" role="status" aria-live="polite">
              {editor.announcement.value}
            </span>
            <span class="hint" role="status">
              {editor.total.value === null
                ? "Loading…"
                : `${editor.total.value} ${editor.total.value === 1 ? "string" : "strings"}`}
              {editor.total.value !== null && !editor.complete.value
                ? ` (${editor.rows.value.length} loaded)`
                : ""}
            </span>
            <KeysBar editor={editor} />
            <button type="button" onClick={() => setShortcuts(true)}>
              <KeyboardIcon /> Shortcuts <kbd>?</kbd>
            </button>
          </div>
          <FilterBar project={p} filters={filters} counts={editor.counts.value} />
          <BulkBar editor={editor} />
          <Notice>{editor.error.value}</Notice>
          <div class={`editor-layout${editor.history.value ? " with-history" : ""}`}>
            <EditorGrid editor={editor} onShortcuts={() => setShortcuts(true)} />
            <HistoryPanel editor={editor} />
          </div>
          {editor.complete.value && editor.rows.value.length === 0 && (
            <p>
              Nothing matches these filters.{" "}
              {filters.missing && (
                <a href={`?${filtersQuery({ ...filters, missing: false })}`}>Show every string</a>
              )}
            </p>
          )}
          <ConflictDialog editor={editor} />
          {shortcuts && <ShortcutsDialog onClose={() => setShortcuts(false)} />}
        </>
      )}
    </Shell>
  );
}
