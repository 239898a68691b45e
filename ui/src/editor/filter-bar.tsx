/** The editor's filters; every change goes into the URL, which is the view's only state. */
import { useEffect, useState } from "preact/hooks";
import { setQuery } from "../router.ts";
import { type Project, type RecordCounts, STATUS_LABEL, STATUSES, type Status } from "../types.ts";
import { type EditorFilters, filtersQuery } from "./filters.ts";

interface FilterBarProps {
  project: Project;
  filters: EditorFilters;
  counts: RecordCounts | null;
}

export function FilterBar({ project, filters, counts }: FilterBarProps) {
  const apply = (change: Partial<EditorFilters>) => setQuery(filtersQuery({ ...filters, ...change }));
  const [q, setQ] = useState(filters.q);
  useEffect(() => setQ(filters.q), [filters.q]);
  useEffect(() => {
    if (q === filters.q) return;
    const timer = setTimeout(() => apply({ q }), 300);
    return () => clearTimeout(timer);
  });
  const others = project.languages.filter((l) => l !== project.baseLanguage);
  const n = (k: keyof RecordCounts) => (counts ? ` (${counts[k]})` : "");
  // A missing string has no status: "missing only" and a status shown together show nothing, so
  // choosing one puts the other aside (the counts beside each say what it will show).
  const toggleStatus = (s: Status, on: boolean) =>
    apply(
      on
        ? { status: [...filters.status, s], missing: false }
        : { status: filters.status.filter((x) => x !== s) },
    );
  return (
    <form class="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      <fieldset>
        <legend>Languages shown</legend>
        {others.map((l) => (
          <label key={l} class="inline">
            <input
              type="checkbox"
              checked={filters.languages.includes(l)}
              disabled={filters.languages.length === 1 && filters.languages.includes(l)}
              onChange={(e) => {
                const on = (e.currentTarget as HTMLInputElement).checked;
                const languages = on
                  ? others.filter((x) => x === l || filters.languages.includes(x))
                  : filters.languages.filter((x) => x !== l);
                apply({
                  languages,
                  language: languages.includes(filters.language)
                    ? filters.language
                    : (languages[0] as string),
                });
              }}
            />{" "}
            {l}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Show strings of</legend>
        <label class="inline">
          <span class="sr-only">Language the filters apply to</span>
          <select
            value={filters.language}
            onChange={(e) => apply({ language: (e.currentTarget as HTMLSelectElement).value })}
          >
            {filters.languages.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label class="inline">
          <input
            type="checkbox"
            checked={filters.missing}
            onChange={(e) =>
              apply(
                (e.currentTarget as HTMLInputElement).checked
                  ? { missing: true, status: [] }
                  : { missing: false },
              )
            }
          />{" "}
          Missing only{n("missing")}
        </label>
        <label class="inline">
          <input
            type="checkbox"
            checked={filters.warnings}
            onChange={(e) => apply({ warnings: (e.currentTarget as HTMLInputElement).checked })}
          />{" "}
          With warnings{n("warnings")}
        </label>
      </fieldset>
      <fieldset>
        <legend>Status</legend>
        {STATUSES.map((s) => (
          <label key={s} class="inline">
            <input
              type="checkbox"
              checked={filters.status.includes(s)}
              onChange={(e) => toggleStatus(s, (e.currentTarget as HTMLInputElement).checked)}
            />{" "}
            {STATUS_LABEL[s]}
            {n(s)}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Find</legend>
        <label class="inline">
          Search{" "}
          <input
            type="search"
            value={q}
            onInput={(e) => setQ((e.currentTarget as HTMLInputElement).value)}
            placeholder="key or text"
          />
        </label>
        <label class="inline">
          Changed since{" "}
          <input
            type="datetime-local"
            value={filters.changedSince}
            onChange={(e) => apply({ changedSince: (e.currentTarget as HTMLInputElement).value })}
          />
        </label>
      </fieldset>
    </form>
  );
}
