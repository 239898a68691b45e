/**
 * The editor's state for one view (project + filters): the rows loaded so far, the active cell,
 * the cell being edited, the selection, and what the dialogs and panels show. Pages of rows are
 * fetched one after another in the background, so a 50,000-key project shows its first rows at
 * once and the whole list is scrollable soon after.
 */
import { batch, signal } from "@preact/signals";
import { ApiError, api, apiData, messageOf } from "../api.ts";
import { can, canEdit } from "../session.ts";
import type { Project, RecordCounts, RecordPage, RecordRow, Status, TranslationRecord } from "../types.ts";
import { type EditorFilters, recordsQuery } from "./filters.ts";

export const PAGE_SIZE = 500;
/** The first page is small: the first rows are drawn before the rest arrives. */
export const FIRST_PAGE_SIZE = 100;

export interface Conflict {
  index: number;
  language: string;
  mine: { value?: string; status?: Status };
  theirs: TranslationRecord | null;
}

export type Editor = ReturnType<typeof createEditor>;

export function createEditor(project: Project, filters: EditorFilters) {
  const base = `/projects/${encodeURIComponent(project.id)}/records`;
  const rows = signal<RecordRow[]>([]);
  const total = signal<number | null>(null);
  const counts = signal<RecordCounts | null>(null);
  const complete = signal(false);
  const error = signal("");
  const active = signal({ row: 0, col: 0 });
  const editing = signal<{ row: number; language: string; draft: string } | null>(null);
  const selected = signal<ReadonlySet<string>>(new Set());
  const conflict = signal<Conflict | null>(null);
  const history = signal<{ key: string; language: string } | null>(null);
  const announcement = signal("");
  let generation = 0;

  /** Loads every page in order; a newer load (after a bulk action) stops an older one. */
  async function load(): Promise<void> {
    const mine = ++generation;
    let cursor: string | null = null;
    let first = true;
    complete.value = false;
    try {
      do {
        const page: RecordPage = await api<RecordPage>(
          "GET",
          `${base}?${recordsQuery(filters, cursor, first ? FIRST_PAGE_SIZE : PAGE_SIZE)}`,
        );
        if (mine !== generation) return;
        cursor = page.nextCursor;
        batch(() => {
          // Appended to the rows as they are now: a save made meanwhile stays.
          rows.value = first ? page.data : rows.value.concat(page.data);
          first = false;
          if (page.counts) {
            counts.value = page.counts;
            total.value = page.counts.total;
          }
          if (!cursor) {
            total.value = rows.value.length;
            complete.value = true;
          }
        });
      } while (cursor);
    } catch (e) {
      if (mine === generation) error.value = messageOf(e);
    }
  }

  function replace(index: number, language: string, record: TranslationRecord | null): void {
    const row = rows.value[index];
    if (!row) return;
    const next: RecordRow =
      language === project.baseLanguage && !(language in row.records)
        ? { ...row, base: record }
        : { ...row, records: { ...row.records, [language]: record } };
    rows.value = rows.value.with(index, next);
  }

  /**
   * Writes a value and/or status at the version the page last saw. A 412 (someone saved in
   * between) opens the conflict dialog with theirs and mine; nothing is overwritten silently.
   */
  async function save(
    index: number,
    language: string,
    change: { value?: string; status?: Status },
    version?: number,
  ): Promise<boolean> {
    const row = rows.value[index];
    if (!row) return false;
    const current = row.records[language] ?? null;
    try {
      const record = await apiData<TranslationRecord>("PUT", base, {
        key: row.key,
        language,
        ...change,
        version: version ?? current?.version ?? 0,
      });
      replace(index, language, record);
      announcement.value = `Saved ${row.key} in ${language}`;
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 412) {
        conflict.value = {
          index,
          language,
          mine: change,
          theirs: (e.body.current as TranslationRecord | null) ?? null,
        };
        return false;
      }
      error.value = messageOf(e);
      return false;
    }
  }

  async function bulkStatus(status: Status): Promise<void> {
    const keys = [...selected.value];
    if (keys.length === 0) return;
    try {
      const answer = await apiData<{ changed?: number }>("POST", `${base}/bulk`, {
        language: filters.language,
        action: "status",
        status,
        keys,
      });
      announcement.value = `${answer?.changed ?? keys.length} records changed`;
      selected.value = new Set();
      await load();
    } catch (e) {
      error.value = messageOf(e);
    }
  }

  function toggleSelected(key: string): void {
    const next = new Set(selected.value);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    selected.value = next;
  }

  return {
    project,
    filters,
    /** Whether the person may edit values in `language`: the project's answer, else their role's. */
    mayEdit: (language: string) => (project.can ? project.can.edit.includes(language) : canEdit(language)),
    /** Whether the person may approve or mark needs review in `language`. */
    mayReview: (language: string) =>
      project.can ? project.can.review.includes(language) : can("review", language),
    rows,
    total,
    counts,
    complete,
    error,
    active,
    editing,
    selected,
    conflict,
    history,
    announcement,
    load,
    save,
    replace,
    bulkStatus,
    toggleSelected,
    stop: () => {
      generation++;
    },
  };
}

/** A record with no non-empty value counts as missing. */
export const isMissing = (record: TranslationRecord | null | undefined): boolean =>
  !record || record.value.trim() === "";
