/**
 * A 412 on save: someone changed the record since the page read it. Both versions side by side;
 * the person keeps theirs (saved over the new version) or takes the other one. Nothing is lost.
 */
import { Dialog } from "../base/dialog.tsx";
import { actorName, dirOf, STATUS_LABEL, when } from "../types.ts";
import type { Editor } from "./editor-state.ts";

export function ConflictDialog({ editor }: { editor: Editor }) {
  const conflict = editor.conflict.value;
  if (!conflict) return null;
  const row = editor.rows.value[conflict.index];
  const { theirs, mine, language } = conflict;
  const close = () => {
    editor.conflict.value = null;
  };
  /** Whether the editor is still on the string in conflict (it may have moved on since). */
  const onThisString = () =>
    editor.editing.value?.row === conflict.index && editor.editing.value.language === language;
  /**
   * Back to editing (or Esc): their version is now the one the page has seen, so the next save is
   * made over it, as the person has read it, instead of meeting the same conflict again.
   */
  const backToEditing = () => {
    editor.replace(conflict.index, language, theirs);
    close();
  };
  return (
    <Dialog title="Someone else changed this string" onClose={backToEditing} wide>
      <p>
        <code>{row?.key}</code> in <strong>{language}</strong> was saved by{" "}
        <strong>{actorName(theirs?.updatedBy)}</strong> ({when(theirs?.updatedAt)}) while you were editing it.
        Choose which text to keep.
      </p>
      <div class="conflict">
        <section aria-labelledby="theirs-title">
          <h3 id="theirs-title">Theirs (saved now)</h3>
          <pre class="value" dir={dirOf(language)} lang={language}>
            {theirs?.value ?? "(deleted)"}
          </pre>
          {theirs && <span class={`chip ${theirs.status}`}>{STATUS_LABEL[theirs.status]}</span>}
        </section>
        <section aria-labelledby="mine-title">
          <h3 id="mine-title">Mine (not saved)</h3>
          <pre class="value" dir={dirOf(language)} lang={language}>
            {mine.value ?? row?.records[language]?.value ?? ""}
          </pre>
          {mine.status && <span class={`chip ${mine.status}`}>{STATUS_LABEL[mine.status]}</span>}
        </section>
      </div>
      <div class="row">
        <button
          type="button"
          class="primary"
          onClick={async () => {
            close();
            const ok = await editor.save(conflict.index, language, mine, theirs?.version ?? 0);
            if (ok && onThisString()) editor.editing.value = null;
          }}
        >
          Keep mine
        </button>
        <button
          type="button"
          onClick={() => {
            editor.replace(conflict.index, language, theirs);
            if (onThisString()) editor.editing.value = null;
            close();
          }}
        >
          Take theirs
        </button>
        <button type="button" onClick={backToEditing}>
          Back to editing
        </button>
      </div>
    </Dialog>
  );
}
