/**
 * The strings as a grid: keys as rows, the base and the chosen languages as columns, drawn by a
 * virtual list (only the rows in view exist in the DOM). The keyboard drives everything: arrows
 * and Tab move, Enter edits, Ctrl/Cmd+Enter saves and moves on, Esc cancels; see SHORTCUTS.
 */

import { batch } from "@preact/signals";
import { defaultRangeExtractor } from "@tanstack/virtual-core";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { useVirtualizer } from "../base/use-virtualizer.ts";
import { dirOf, type RecordRow } from "../types.ts";
import { CellEditor, CellView } from "./editor-cell.tsx";
import { cell, type Editor, isMissing } from "./editor-state.ts";

/** A performance mark set once per page, when the editor's first rows are in the DOM. */
export const FIRST_ROWS_MARK = "parlance:first-rows";

export const SHORTCUTS: [string, string][] = [
  ["↑ ↓ ← →", "Move between cells"],
  ["Tab / Shift+Tab", "Next / previous cell"],
  ["Enter", "Edit the cell"],
  ["Ctrl+Enter (⌘+Enter)", "Save and edit the next string"],
  ["Esc", "Cancel the edit"],
  ["Ctrl+B (⌘+B)", "Copy the base text into the translation"],
  ["N", "Next missing string"],
  ["A", "Approve (reviewers)"],
  ["R", "Mark needs review (reviewers)"],
  ["H", "History of the record"],
  ["Space", "Select the row for a bulk action"],
  ["?", "Show these shortcuts"],
];

interface GridProps {
  editor: Editor;
  onShortcuts: () => void;
}

export function EditorGrid({ editor, onShortcuts }: GridProps) {
  const { project, filters } = editor;
  const languages = filters.languages;
  const rows = editor.rows.value;
  const count = Math.max(rows.length, editor.total.value ?? 0);
  const scroller = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => 64,
    overscan: 8,
    getItemKey: (i) => rows[i]?.key ?? `pending-${i}`,
    // The active row stays drawn when the wheel scrolls it away: the focus it holds stays in the
    // grid, so the next key (an arrow, Enter, N) still acts where the person left off.
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      const row = editor.active.peek().row;
      if (row < range.count && !indexes.includes(row)) {
        indexes.push(row);
        indexes.sort((a, b) => a - b);
      }
      return indexes;
    },
  });
  const active = editor.active.value;
  const editing = editor.editing.value;

  /**
   * Focus follows the active cell, in the same commit that draws it, so a key pressed right after
   * a move, a save or a cancel lands where the person sees the cursor (the text area of an edit
   * that closes takes the focus with it). Only while the focus is in the grid, or nowhere after
   * such a close: never taken from the filters or a dialog.
   */
  const wantsFocus = useRef(false);
  const request = editor.focusRequest.value;
  const handledRequest = useRef(request);
  const asked = request !== handledRequest.current;
  useLayoutEffect(() => {
    if (editor.editing.value) return;
    const focus = document.activeElement;
    const inGrid = !!focus && !!grid.current?.contains(focus);
    const free = !focus || focus === document.body;
    if (!inGrid && !(wantsFocus.current && free) && !(asked && !document.querySelector("dialog[open]")))
      return;
    const target = grid.current?.querySelector<HTMLElement>(`[data-cell="${active.row}:${active.col}"]`);
    if (!target) {
      if (asked) virtualizer.scrollToIndex(active.row, { align: "auto" });
      return;
    }
    wantsFocus.current = false;
    handledRequest.current = request;
    if (focus !== target) target.focus({ preventScroll: true });
  });

  /** The editor is for typing: once the first rows arrive, the first cell takes the focus. */
  const hasRows = rows.length > 0;
  // The moment the first rows are in the page, for the bench (bench/browser.ts) and the devtools.
  useLayoutEffect(() => {
    if (hasRows && performance.getEntriesByName(FIRST_ROWS_MARK).length === 0)
      performance.mark(FIRST_ROWS_MARK);
  }, [hasRows]);
  useEffect(() => {
    if (!hasRows || grid.current?.contains(document.activeElement)) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    grid.current
      ?.querySelector<HTMLElement>(`[data-cell="${active.row}:${active.col}"]`)
      ?.focus({ preventScroll: true });
  }, [hasRows]);

  const moveTo = (row: number, col: number) => {
    const r = Math.max(0, Math.min(count - 1, row));
    const c = Math.max(0, Math.min(languages.length - 1, col));
    editor.active.value = { row: r, col: c };
    wantsFocus.current = true;
    virtualizer.scrollToIndex(r, { align: "auto" });
  };

  /**
   * A cell chosen with the mouse (or focused) becomes the active one; an open editor elsewhere
   * closes when nothing was typed in it, and stays open (keeping the text) when something was.
   */
  const activate = (row: number, col: number, isEditing: boolean) => {
    const current = editor.editing.value;
    if (current && !isEditing) {
      const before = rows[current.row]?.records[current.language]?.value ?? "";
      if (current.draft === before) editor.editing.value = null;
    }
    const now = editor.active.value;
    if (now.row !== row || now.col !== col) editor.active.value = { row, col };
  };

  const open = (row: number, col: number) => {
    const record = rows[row];
    const language = languages[col];
    if (!record || !language) return;
    if (!editor.mayEdit(language)) {
      editor.announcement.value = `${language} is read-only for you`;
      return;
    }
    editor.editing.value = { row, language, draft: record.records[language]?.value ?? "" };
  };

  /**
   * Closes the edit and moves on at once; the save goes on in the background (the cell shows the
   * text being saved), so what the person types next lands in the next cell, not in a closed one.
   * A conflict brings the edit of that string back with the dialog.
   */
  const saveAndMove = (next: "down" | "right" | "left" | "stay", reopen: boolean) => {
    const current = editor.editing.value;
    if (!current) return;
    const row = rows[current.row];
    const col = languages.indexOf(current.language);
    const before = row?.records[current.language]?.value ?? "";
    const saved =
      row && current.draft !== before
        ? editor.save(current.row, current.language, { value: current.draft })
        : Promise.resolve(true);
    const target =
      next === "down"
        ? { row: current.row + 1, col }
        : next === "right"
          ? col + 1 < languages.length
            ? { row: current.row, col: col + 1 }
            : { row: current.row + 1, col: 0 }
          : next === "left"
            ? col > 0
              ? { row: current.row, col: col - 1 }
              : { row: current.row - 1, col: languages.length - 1 }
            : { row: current.row, col };
    // One change of the edit, closed and reopened further on: a conflict waiting for this edit to
    // end (editor-state.ts) then sees where it went, and is not shown only to be replaced.
    batch(() => {
      editor.editing.value = null;
      moveTo(target.row, target.col);
      if (reopen && target.row < rows.length) open(target.row, target.col);
    });
    if (reopen && target.row >= rows.length && editor.complete.value)
      // Said after the save's own "Saved …", which would otherwise replace it.
      void saved.then((ok) => {
        if (ok) editor.announcement.value = "That was the last string of this view";
      });
  };

  const cancel = () => {
    const current = editor.editing.value;
    editor.editing.value = null;
    if (current) moveTo(current.row, languages.indexOf(current.language));
  };

  /** N: the next missing string of the column, loaded or not yet (the server says which). */
  const nextMissing = async () => {
    const from = editor.active.value;
    const language = languages[from.col] as string;
    let index: number;
    try {
      index = await editor.nextMissing(from.row, language);
    } catch (e) {
      editor.error.value = e instanceof Error ? e.message : String(e);
      return;
    }
    // The person moved on while the answer was on its way: their move wins.
    if (editor.active.value !== from) return;
    if (index < 0) editor.announcement.value = `No missing string in ${language} below this one`;
    else moveTo(index, from.col);
  };

  const setStatus = (status: "approved" | "needs_review") => {
    const row = rows[active.row];
    const language = languages[active.col] as string;
    const record = row?.records[language];
    if (!row || !record || isMissing(record)) return;
    if (!editor.mayReview(language)) {
      editor.announcement.value = `Only reviewers of ${language} can change this status`;
      return;
    }
    void editor.save(active.row, language, { status });
  };

  const onGridKey = (event: KeyboardEvent) => {
    if (editor.editing.value) return;
    const { row, col } = editor.active.value;
    const mod = event.ctrlKey || event.metaKey;
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    if ((event.target as HTMLElement).tagName === "INPUT" && event.key !== "Tab") return;
    switch (event.key) {
      case "ArrowDown":
        handled();
        return moveTo(row + 1, col);
      case "ArrowUp":
        handled();
        return moveTo(row - 1, col);
      case "ArrowRight":
        handled();
        return moveTo(row, col + 1);
      case "ArrowLeft":
        handled();
        return moveTo(row, col - 1);
      case "PageDown":
        handled();
        return moveTo(row + 10, col);
      case "PageUp":
        handled();
        return moveTo(row - 10, col);
      case "Home":
        if (!mod) return;
        handled();
        return moveTo(0, col);
      case "End":
        if (!mod) return;
        handled();
        return moveTo(count - 1, col);
      case "Tab":
        if (event.shiftKey ? row === 0 && col === 0 : row >= count - 1 && col >= languages.length - 1) return;
        handled();
        if (event.shiftKey) return col > 0 ? moveTo(row, col - 1) : moveTo(row - 1, languages.length - 1);
        return col + 1 < languages.length ? moveTo(row, col + 1) : moveTo(row + 1, 0);
      case "Enter":
        handled();
        return open(row, col);
      case " ": {
        const key = rows[row]?.key;
        if (!key) return;
        handled();
        return editor.toggleSelected(key);
      }
    }
    if (mod || event.altKey) return;
    const letter = shortcutLetter(event);
    if (event.key === "?") {
      handled();
      onShortcuts();
    } else if (letter === "n") {
      handled();
      void nextMissing();
    } else if (letter === "a") {
      handled();
      setStatus("approved");
    } else if (letter === "r") {
      handled();
      setStatus("needs_review");
    } else if (letter === "h") {
      handled();
      const key = rows[row]?.key;
      if (key) editor.history.value = { key, language: languages[col] as string };
    }
  };

  /** Keys of the text area; the ones handled stop here (the grid's own keys must not see them). */
  const onEditorKey = (event: KeyboardEvent) => {
    const mod = event.ctrlKey || event.metaKey;
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    if (event.key === "Escape") {
      handled();
      cancel();
    } else if (event.key === "Enter" && mod) {
      handled();
      saveAndMove("down", true);
    } else if (shortcutLetter(event) === "b" && mod) {
      handled();
      const current = editor.editing.value;
      const base = current ? rows[current.row]?.base?.value : undefined;
      if (current && base !== undefined) editor.editing.value = { ...current, draft: base };
    } else if (event.key === "Tab") {
      handled();
      saveAndMove(event.shiftKey ? "left" : "right", false);
    }
  };

  const columns = `2.5rem minmax(9rem, 16%) repeat(${languages.length + 1}, minmax(14rem, 1fr))`;
  const items = virtualizer.getVirtualItems();
  return (
    <div
      ref={grid}
      class="grid"
      role="grid"
      aria-label={`Strings of ${project.name}`}
      aria-rowcount={count + 1}
      aria-colcount={languages.length + 3}
      onKeyDown={onGridKey}
      style={{ "--columns": columns }}
    >
      <div role="rowgroup" class="grid-head" ref={head}>
        <div role="row" class="grid-row" aria-rowindex={1}>
          <div role="columnheader" class="cell select">
            <span class="sr-only">Selected</span>
          </div>
          <div role="columnheader" class="cell">
            Key
          </div>
          <div role="columnheader" class="cell">
            {project.baseLanguage} <span class="hint">base</span>
          </div>
          {languages.map((l) => (
            <div role="columnheader" class="cell" key={l}>
              {l}
              {!editor.mayEdit(l) && <span class="chip draft">read-only</span>}
              {editor.mayEdit(l) && !editor.mayReview(l) && <span class="hint"> translate</span>}
            </div>
          ))}
        </div>
      </div>
      <div
        role="rowgroup"
        class="grid-scroll"
        ref={scroller}
        // On a narrow screen the rows scroll sideways: the column names follow them.
        onScroll={(event) => {
          if (head.current) head.current.scrollLeft = (event.currentTarget as HTMLElement).scrollLeft;
        }}
      >
        <div class="grid-body" style={{ height: `${virtualizer.getTotalSize()}px` }}>
          {items.map((item) => {
            const row: RecordRow | undefined = rows[item.index];
            return (
              <div
                key={item.key}
                role="row"
                class={`grid-row${item.index === active.row ? " active" : ""}`}
                aria-rowindex={item.index + 2}
                aria-selected={row ? editor.selected.value.has(row.key) : undefined}
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row ? (
                  <>
                    <div role="gridcell" class="cell select">
                      <input
                        type="checkbox"
                        tabIndex={-1}
                        aria-label={`Select ${row.key}`}
                        checked={editor.selected.value.has(row.key)}
                        onChange={() => editor.toggleSelected(row.key)}
                      />
                    </div>
                    <div role="rowheader" class="cell key mono">
                      {row.key}
                    </div>
                    <div
                      role="gridcell"
                      class="cell base"
                      dir={dirOf(project.baseLanguage)}
                      lang={project.baseLanguage}
                    >
                      {row.base?.value ?? <span class="missing-text">No base text</span>}
                    </div>
                    {languages.map((language, col) => {
                      const isActive = item.index === active.row && col === active.col;
                      const isEditing = editing?.row === item.index && editing.language === language;
                      const record = row.records[language];
                      return (
                        <div
                          role="gridcell"
                          key={language}
                          class={`cell translation${isActive ? " current" : ""}${editor.mayEdit(language) ? "" : " readonly"}`}
                          data-cell={`${item.index}:${col}`}
                          data-key={row.key}
                          data-language={language}
                          tabIndex={isActive && !isEditing ? 0 : -1}
                          aria-readonly={!editor.mayEdit(language)}
                          onFocus={() => activate(item.index, col, isEditing)}
                          onClick={() => activate(item.index, col, isEditing)}
                          onDblClick={() => open(item.index, col)}
                        >
                          {isEditing && editing ? (
                            <CellEditor
                              keyName={row.key}
                              language={language}
                              baseLanguage={project.baseLanguage}
                              baseValue={row.base?.value ?? null}
                              draft={editing.draft}
                              saved={row.records[language]?.value ?? ""}
                              onDraft={(draft) => {
                                editor.editing.value = { ...editing, draft };
                              }}
                              onKeyDown={onEditorKey}
                              onSave={() => saveAndMove("stay", false)}
                              onCancel={cancel}
                              onCopyBase={() => {
                                editor.editing.value = {
                                  ...editing,
                                  draft: row.base?.value ?? editing.draft,
                                };
                              }}
                            />
                          ) : (
                            <CellView
                              record={record}
                              language={language}
                              saving={editor.saving.value.get(cell(row.key, language))}
                            />
                          )}
                          {isActive && !isEditing && (
                            <div class="cell-actions">
                              {editor.mayEdit(language) && (
                                <button type="button" tabIndex={-1} onClick={() => open(item.index, col)}>
                                  Edit <kbd>Enter</kbd>
                                </button>
                              )}
                              {editor.mayReview(language) && !isMissing(record) && (
                                <>
                                  <button type="button" tabIndex={-1} onClick={() => setStatus("approved")}>
                                    Approve <kbd>A</kbd>
                                  </button>
                                  <button
                                    type="button"
                                    tabIndex={-1}
                                    onClick={() => setStatus("needs_review")}
                                  >
                                    Needs review <kbd>R</kbd>
                                  </button>
                                </>
                              )}
                              <button
                                type="button"
                                tabIndex={-1}
                                onClick={() => {
                                  editor.history.value = { key: row.key, language };
                                }}
                              >
                                History <kbd>H</kbd>
                              </button>
                            </div>
                          )}
                        </div>
                      );
                    })}
                  </>
                ) : (
                  <div role="gridcell" class="cell loading-row">
                    Loading…
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/**
 * The letter a shortcut key stands for: the character typed when it is a Latin letter (so AZERTY's
 * A is A), else the key's place on a US keyboard, so that N, A, R, H and Ctrl+B work the same with
 * an Arabic, Cyrillic or Greek layout, whose keys type no Latin letter.
 */
export function shortcutLetter(event: Pick<KeyboardEvent, "key" | "code">): string {
  if (/^[a-z]$/i.test(event.key)) return event.key.toLowerCase();
  return /^Key[A-Z]$/.test(event.code) ? event.code.slice(3).toLowerCase() : "";
}
