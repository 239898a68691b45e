/**
 * The editor's state for one view (project + filters): the rows loaded so far, the active cell,
 * the cell being edited, the selection, and what the dialogs and panels show. Pages of rows are
 * fetched one after another in the background, so a 50,000-key project shows its first rows at
 * once and the whole list is scrollable soon after.
 */
import { batch, effect, signal } from "@preact/signals";
import { ApiError, api, apiData, messageOf } from "../api.ts";
import { can, canEdit } from "../session.ts";
import type { Project, RecordCounts, RecordPage, RecordRow, Status, TranslationRecord } from "../types.ts";
import { type EditorFilters, recordsQuery } from "./filters.ts";
import { FIRST_PAGE_SIZE, recordsPath, takePrefetched } from "./prefetch.ts";

export const PAGE_SIZE = 500;

/** The save a view left behind when it was left (its open edit): the next view loads after it. */
let leftBehind: Promise<unknown> = Promise.resolve();
/** What the view that was left could not save, said by the next one (its own dialogs are gone). */
let leftUnsaved: string[] = [];

export interface Conflict {
  index: number;
  language: string;
  mine: { value?: string; status?: Status };
  theirs: TranslationRecord | null;
}

export type Editor = ReturnType<typeof createEditor>;

export function createEditor(project: Project, filters: EditorFilters) {
  const base = recordsPath(project.id);
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
  /** Bumped when the current cell should take the focus from wherever it is (a dialog that closed). */
  const focusRequest = signal(0);
  /** Values on their way to the server, by `cell(key, language)`: shown until the answer. */
  const saving = signal<ReadonlyMap<string, string>>(new Map());
  /** The cursor after the last row loaded (null before the first page and once complete). */
  let loadedCursor: string | null = null;
  let generation = 0;
  /** False once the page has left this view: waits for rows end. */
  const live = signal(true);
  /** The save in flight per cell: the next save of that cell waits for it, to send its version. */
  const inFlight = new Map<string, Promise<unknown>>();
  /**
   * A conflict that came back while the person was already typing in another string (saves are
   * sent as they move on): shown once that edit ends, so neither text is replaced while typed.
   */
  const waiting: { conflict: Conflict; draft?: string; during: string }[] = [];
  const editedCell = () => (editing.value ? `${editing.value.row}\u0000${editing.value.language}` : "");
  const showConflict = (c: Conflict, draft: string | undefined) => {
    conflict.value = c;
    // "Back to editing" returns to this string with the text that was not saved.
    if (draft !== undefined) editing.value = { row: c.index, language: c.language, draft };
  };
  const stopWaiting = effect(() => {
    const now = editedCell();
    // One dialog at a time, the oldest first.
    const next = waiting[0];
    if (!next || conflict.value !== null || now === next.during) return;
    waiting.shift();
    showConflict(next.conflict, next.draft);
  });

  /** Loads every page in order; a newer load (after a bulk action) stops an older one. */
  async function load(): Promise<void> {
    const mine = ++generation;
    let cursor: string | null = null;
    let first = true;
    complete.value = false;
    loadedCursor = null;
    // The rows include what the view left before it saved (a search typed during an edit).
    await leftBehind;
    if (leftUnsaved.length > 0) {
      error.value = `Not saved (someone changed it meanwhile, or the save failed), to write again: ${leftUnsaved.join("; ")}`;
      leftUnsaved = [];
    }
    try {
      do {
        const path = `${base}?${recordsQuery(filters, cursor, first ? FIRST_PAGE_SIZE : PAGE_SIZE)}`;
        const page: RecordPage = await ((first && takePrefetched(path)) || api<RecordPage>("GET", path));
        if (mine !== generation) return;
        cursor = page.nextCursor;
        loadedCursor = cursor;
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
    if (counts.value && language === filters.language)
      counts.value = recount(counts.value, row, row.records[language] ?? null, record);
    else if (counts.value && language === project.baseLanguage) {
      // A base text filled or emptied makes the counted language's string missing or not.
      const counted = row.records[filters.language] ?? null;
      const missing = (base: TranslationRecord | null) =>
        base && base.value !== "" && (!counted || counted.value === "") ? 1 : 0;
      const change = missing(record) - missing(row.base);
      if (change !== 0) counts.value = { ...counts.value, missing: counts.value.missing + change };
    }
    const next: RecordRow =
      language === project.baseLanguage && !(language in row.records)
        ? { ...row, base: record }
        : { ...row, records: { ...row.records, [language]: record } };
    rows.value = rows.value.with(index, next);
  }

  /** The row index of `key` now (rows may have been reloaded since an index was read). */
  const indexOf = (key: string, hint: number) =>
    rows.value[hint]?.key === key ? hint : rows.value.findIndex((r) => r.key === key);

  /**
   * Writes a value and/or status at the version the page last saw. A 412 (someone saved in
   * between) opens the conflict dialog with theirs and mine, and the edit of that string again;
   * nothing is overwritten silently. Saves of one cell go one after the other, each with the
   * version the previous one returned, so the person can move on before the answer arrives.
   */
  function save(
    index: number,
    language: string,
    change: { value?: string; status?: Status },
    version?: number,
  ): Promise<boolean> {
    const key = rows.value[index]?.key;
    if (key === undefined) return Promise.resolve(false);
    const id = cell(key, language);
    if (change.value !== undefined) saving.value = new Map(saving.value).set(id, change.value);
    const run = (inFlight.get(id) ?? Promise.resolve()).then(() =>
      send(key, index, language, change, version),
    );
    inFlight.set(id, run);
    return run.finally(() => {
      if (inFlight.get(id) === run) {
        inFlight.delete(id);
        const next = new Map(saving.value);
        next.delete(id);
        saving.value = next;
      }
    });
  }

  async function send(
    key: string,
    hint: number,
    language: string,
    change: { value?: string; status?: Status },
    version?: number,
  ): Promise<boolean> {
    const current = rows.value[indexOf(key, hint)]?.records[language] ?? null;
    try {
      const record = await apiData<TranslationRecord>("PUT", base, {
        key,
        language,
        ...change,
        version: version ?? current?.version ?? 0,
      });
      replace(indexOf(key, hint), language, record);
      announcement.value = `Saved ${key} in ${language}`;
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 412) {
        const index = indexOf(key, hint);
        const found: Conflict = {
          index,
          language,
          mine: change,
          theirs: (e.body.current as TranslationRecord | null) ?? null,
        };
        // The answer usually comes before anything is typed in the next string; a late one waits
        // until that string's edit ends rather than replace what is being typed.
        const now = editing.value;
        const typing =
          now !== null &&
          !(now.row === index && now.language === language) &&
          now.draft !== (rows.value[now.row]?.records[now.language]?.value ?? "");
        if (typing) waiting.push({ conflict: found, draft: change.value, during: editedCell() });
        else showConflict(found, change.value);
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
      const changed = answer?.changed ?? keys.length;
      announcement.value =
        changed === keys.length
          ? `${changed} ${changed === 1 ? "record" : "records"} changed`
          : `${changed} of ${keys.length} records changed; the others were left as they were (that status already, or not translated yet)`;
      selected.value = new Set();
      // The bulk bar goes with the selection: the focus goes back to the string, not to the page.
      focusRequest.value++;
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

  /**
   * The next row after `after` whose `language` is missing, in this view: among the rows loaded,
   * else the server says which key it is (missing filter, from the cursor after the last row
   * loaded) and the rows load up to it. -1 when there is none.
   */
  async function nextMissing(after: number, language: string): Promise<number> {
    // From a row not loaded yet (Ctrl+End goes there at once), the search starts once it is.
    if (after >= rows.value.length && !complete.value && (await whenLoaded((_, i) => i >= after)) < 0)
      return -1;
    const list = rows.value;
    for (let i = after + 1; i < list.length; i++) if (isMissing(list[i]?.records[language])) return i;
    if (complete.value) return -1;
    // The view's other filters apply to its own language; in another one the server cannot
    // combine them, so the rows are scanned as they load.
    const expressible =
      language === filters.language ||
      (!filters.missing && filters.status.length === 0 && !filters.warnings && !filters.changedSince);
    if (!expressible) return whenLoaded((row, i) => i > after && isMissing(row.records[language]));
    const query = recordsQuery({ ...filters, language, missing: true }, loadedCursor, 1);
    const page = await api<RecordPage>("GET", `${base}?${query}`);
    const key = page.data[0]?.key;
    if (key === undefined) return -1;
    announcement.value = `Loading the strings up to ${key}…`;
    return whenLoaded((row) => row.key === key);
  }

  /**
   * The index of the first loaded row that matches, waiting for pages as they load; -1 once the
   * list is complete without one. Rows appended are scanned once; a list loaded again, from the top.
   */
  function whenLoaded(matches: (row: RecordRow, index: number) => boolean): Promise<number> {
    const mine = generation;
    return new Promise((resolve) => {
      let scanned: RecordRow[] = [];
      let answer: number | null = null;
      const dispose = effect(() => {
        const list = rows.value;
        const done = complete.value || !live.value;
        if (answer !== null) return;
        const appended = list.length >= scanned.length && list[0] === scanned[0];
        for (let i = appended ? scanned.length : 0; i < list.length; i++) {
          if (matches(list[i] as RecordRow, i)) {
            answer = i;
            break;
          }
        }
        scanned = list;
        if (answer === null && (done || mine !== generation || error.value)) answer = -1;
        if (answer !== null) {
          resolve(answer);
          queueMicrotask(() => dispose());
        }
      });
    });
  }

  /**
   * After a key was added or restored: the rows load again and the key becomes the current row
   * (the grid takes the focus), or the announcement says the view's filters leave it out.
   */
  async function showKey(key: string, done: string): Promise<void> {
    void load();
    const index = await whenLoaded((row) => row.key === key);
    if (index < 0) {
      announcement.value = `${done}; this view's filters leave it out`;
      return;
    }
    batch(() => {
      active.value = { row: index, col: 0 };
      announcement.value = done;
    });
  }

  /** A key renamed on the server: the row keeps its place and records under the new name. */
  function renamed(from: string, to: string): void {
    const rename = (r: TranslationRecord | null) => r && { ...r, key: to };
    rows.value = rows.value.map((row) =>
      row.key === from
        ? {
            key: to,
            base: rename(row.base),
            records: Object.fromEntries(Object.entries(row.records).map(([l, r]) => [l, rename(r)])),
          }
        : row,
    );
    if (selected.value.has(from))
      selected.value = new Set([...selected.value].map((k) => (k === from ? to : k)));
    announcement.value = `Renamed ${from} to ${to}`;
  }

  /** Keys deleted on the server: their rows leave the list. */
  function removed(keys: readonly string[]): void {
    const gone = new Set(keys);
    const before = rows.value.length;
    batch(() => {
      rows.value = rows.value.filter((row) => !gone.has(row.key));
      const dropped = before - rows.value.length;
      if (total.value !== null) total.value = Math.max(rows.value.length, total.value - dropped);
      selected.value = new Set([...selected.value].filter((k) => !gone.has(k)));
      const last = Math.max(0, (total.value ?? rows.value.length) - 1);
      if (active.value.row > last) active.value = { row: last, col: active.value.col };
      announcement.value = keys.length > 1 ? `Deleted ${keys.length} keys` : `Deleted ${keys[0]}`;
    });
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
    saving,
    focusRequest,
    load,
    nextMissing,
    showKey,
    renamed,
    removed,
    save,
    replace,
    bulkStatus,
    toggleSelected,
    /**
     * The view is left (another filter, another page). Text typed in an open edit is saved rather
     * than dropped with the view; within a view the grid keeps such an edit open instead.
     */
    stop: () => {
      const unsaved = (index: number, language: string, text: string | undefined) =>
        `${rows.value[index]?.key ?? "a string"} in ${language}: “${text ?? ""}”`;
      // Conflicts this view can no longer show: their text goes to the next view's notice.
      for (const w of waiting) leftUnsaved.push(unsaved(w.conflict.index, w.conflict.language, w.draft));
      waiting.length = 0;
      const open = editing.value;
      if (open && open.draft !== (rows.value[open.row]?.records[open.language]?.value ?? "")) {
        const text = unsaved(open.row, open.language, open.draft);
        leftBehind = save(open.row, open.language, { value: open.draft }).then((ok) => {
          if (!ok) leftUnsaved.push(text);
        });
      }
      generation++;
      live.value = false;
      stopWaiting();
    },
  };
}

/** A cell's id: a key and a language. */
export const cell = (key: string, language: string) => `${language}\u0000${key}`;

/**
 * The filter bar's counts after one record of the counted language changed from `was` to `now`,
 * counted as the server counts them (every record under its status and, with warnings, under
 * warnings; a key is missing when the base has text and the record is absent or empty), so the
 * numbers stay true between reloads.
 */
export function recount(
  counts: RecordCounts,
  row: RecordRow,
  was: TranslationRecord | null,
  now: TranslationRecord | null,
): RecordCounts {
  const next = { ...counts };
  const baseHasText = !!row.base && row.base.value !== "";
  for (const [record, sign] of [
    [was, -1],
    [now, 1],
  ] as const) {
    if (record) {
      next[record.status] += sign;
      if (record.warnings.length > 0) next.warnings += sign;
    }
    if (baseHasText && (!record || record.value === "")) next.missing += sign;
  }
  return next;
}

/** A record with no non-empty value counts as missing. */
export const isMissing = (record: TranslationRecord | null | undefined): boolean =>
  !record || record.value.trim() === "";
