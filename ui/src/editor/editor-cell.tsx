/**
 * One translation cell: its value with status chip and warnings (explained inline), or, while
 * being edited, a text area whose warnings are recomputed on every keystroke by core/checks, the
 * same pure module the server runs.
 */
import { useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { checkTranslation } from "../../../core/checks/index.ts";
import { WarnIcon } from "../base/icons.tsx";
import { dirOf, type RecordWarning, STATUS_LABEL, type TranslationRecord } from "../types.ts";
import { isMissing } from "./editor-state.ts";

export function StatusChip({ record }: { record: TranslationRecord | null | undefined }) {
  const status = isMissing(record) ? "missing" : (record as TranslationRecord).status;
  return <span class={`chip ${status}`}>{STATUS_LABEL[status]}</span>;
}

export function Warnings({ warnings, live }: { warnings: readonly RecordWarning[]; live?: boolean }) {
  if (warnings.length === 0 && !live) return null;
  return (
    // No aria-label: a cell's name is made of its content, and a label would replace the messages.
    <ul class="warnings" aria-live={live ? "polite" : undefined}>
      {warnings.map((w, i) => (
        <li key={`${w.code}-${i}`}>
          <WarnIcon /> {w.message}
        </li>
      ))}
    </ul>
  );
}

export function CellView({
  record,
  language,
  saving,
}: {
  record: TranslationRecord | null | undefined;
  language: string;
  /** The text on its way to the server, shown instead of the record's until the answer. */
  saving?: string | undefined;
}) {
  if (saving !== undefined)
    return (
      <>
        {saving.trim() !== "" && (
          <div class="value" dir={dirOf(language)} lang={language}>
            {saving}
          </div>
        )}
        <div class="meta">
          <span class="chip pending saving">Saving…</span>
        </div>
      </>
    );
  return (
    <>
      {!isMissing(record) && (
        <div class="value" dir={dirOf(language)} lang={language}>
          {record?.value}
        </div>
      )}
      <div class="meta">
        <StatusChip record={record} />
        {record && record.warnings.length > 0 && (
          <span class="chip warn">
            {record.warnings.length} warning{record.warnings.length > 1 ? "s" : ""}
          </span>
        )}
      </div>
      {record && <Warnings warnings={record.warnings} />}
    </>
  );
}

interface CellEditorProps {
  keyName: string;
  language: string;
  baseLanguage: string;
  baseValue: string | null;
  draft: string;
  /** The value saved now ("" when the string is missing). */
  saved: string;
  onDraft: (draft: string) => void;
  onKeyDown: (event: KeyboardEvent) => void;
  onSave: () => void;
  onCancel: () => void;
  onCopyBase: () => void;
}

export function CellEditor(props: CellEditorProps) {
  const area = useRef<HTMLTextAreaElement>(null);
  // Focus before the next key event arrives: a fast typist's first letters land in the text area.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  // A missing string opened and not typed in yet is not a mistake: "empty" waits for a change.
  const untouched = props.draft === "" && props.saved === "";
  const warnings = useMemo(
    () =>
      untouched
        ? []
        : checkTranslation({
            base: props.baseValue,
            value: props.draft,
            baseLanguage: props.baseLanguage,
            language: props.language,
          }),
    [untouched, props.baseValue, props.draft, props.baseLanguage, props.language],
  );
  const lines = Math.min(12, Math.max(2, props.draft.split("\n").length + 1));
  return (
    <div class="cell-editor">
      <textarea
        ref={area}
        rows={lines}
        dir={dirOf(props.language)}
        lang={props.language}
        aria-label={`Translation of ${props.keyName} in ${props.language}`}
        value={props.draft}
        onInput={(e) => props.onDraft((e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={props.onKeyDown}
      />
      <Warnings warnings={warnings} live />
      <div class="row">
        <button type="button" class="primary" onMouseDown={(e) => e.preventDefault()} onClick={props.onSave}>
          Save <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
        </button>
        <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={props.onCancel}>
          Cancel <kbd>Esc</kbd>
        </button>
        <button
          type="button"
          onMouseDown={(e) => e.preventDefault()}
          onClick={props.onCopyBase}
          disabled={props.baseValue === null}
        >
          Copy base <kbd>Ctrl</kbd>+<kbd>B</kbd>
        </button>
      </div>
    </div>
  );
}
