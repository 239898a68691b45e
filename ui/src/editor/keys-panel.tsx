/**
 * Keys, for developers and above: add a key (with its base text), rename the current row's key,
 * delete the selected keys (or the current one) in every language, and, for admins and owners,
 * restore a deleted key. Each is a dialog reached by a button of the editor's toolbar.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { apiData, messageOf } from "../api.ts";
import { Dialog } from "../base/dialog.tsx";
import { Field, Notice } from "../base/field.tsx";
import { useAsync } from "../base/use-async.ts";
import { can } from "../session.ts";
import { actorName, when } from "../types.ts";
import type { Editor } from "./editor-state.ts";

type Mode = "add" | "rename" | "delete" | "deleted";

interface DeletedKey {
  key: string;
  deletedAt: string;
  deletedBy: Parameters<typeof actorName>[0];
  languages: string[];
}

export function KeysBar({ editor }: { editor: Editor }) {
  const [mode, setMode] = useState<Mode | null>(null);
  // After a change, the grid's current cell takes the focus back once the dialog has closed.
  const focusAfter = useRef(false);
  useEffect(() => {
    if (mode !== null || !focusAfter.current) return;
    focusAfter.current = false;
    editor.focusRequest.value++;
  }, [mode]);
  const { project } = editor;
  if (!(project.can ? project.can.manageKeys : can("keys"))) return null;
  const current = editor.rows.value[editor.active.value.row]?.key;
  const targets = editor.selected.value.size > 0 ? [...editor.selected.value] : current ? [current] : [];
  const cancel = () => setMode(null);
  const close = () => {
    focusAfter.current = true;
    setMode(null);
  };
  return (
    <section class="row keys-bar" aria-label="Keys">
      <button type="button" onClick={() => setMode("add")}>
        Add key
      </button>
      <button type="button" disabled={!current} onClick={() => setMode("rename")}>
        Rename key
      </button>
      <button type="button" disabled={targets.length === 0} onClick={() => setMode("delete")}>
        {targets.length > 1 ? `Delete ${targets.length} keys` : "Delete key"}
      </button>
      {can("restoreKeys") && (
        <button type="button" onClick={() => setMode("deleted")}>
          Deleted keys
        </button>
      )}
      {mode === "add" && <AddKey editor={editor} onClose={cancel} onDone={close} />}
      {mode === "rename" && current && (
        <RenameKey editor={editor} from={current} onClose={cancel} onDone={close} />
      )}
      {mode === "delete" && <DeleteKeys editor={editor} keys={targets} onClose={cancel} onDone={close} />}
      {mode === "deleted" && <DeletedKeys editor={editor} onClose={cancel} onDone={close} />}
    </section>
  );
}

/** A dialog's form: submits with Enter, shows the server's refusal, closes when done. */
function KeyForm(props: {
  title: string;
  submit: string;
  onClose: () => void;
  onDone: () => void;
  run: () => Promise<void>;
  children: preact.ComponentChildren;
}) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError("");
          try {
            await props.run();
            props.onDone();
          } catch (err) {
            setError(messageOf(err));
            setBusy(false);
          }
        }}
      >
        {props.children}
        <Notice>{error}</Notice>
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            {props.submit}
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

const keysPath = (editor: Editor) => `/projects/${encodeURIComponent(editor.project.id)}/keys`;

interface DialogProps {
  editor: Editor;
  onClose: () => void;
  onDone: () => void;
}

function AddKey({ editor, onClose, onDone }: DialogProps) {
  const [key, setKey] = useState("");
  const [base, setBase] = useState("");
  return (
    <KeyForm
      title="Add a key"
      submit="Add key"
      onClose={onClose}
      onDone={onDone}
      run={async () => {
        await apiData("POST", keysPath(editor), base === "" ? { key } : { key, baseValue: base });
        await editor.showKey(key, `Added ${key}`);
      }}
    >
      <Field label="Key" required value={key} onInput={setKey} hint="For example home.title" />
      <Field label={`Base text (${editor.project.baseLanguage})`} value={base} onInput={setBase} />
    </KeyForm>
  );
}

function RenameKey({ editor, from, onClose, onDone }: DialogProps & { from: string }) {
  const [to, setTo] = useState(from);
  return (
    <KeyForm
      title={`Rename ${from}`}
      submit="Rename"
      onClose={onClose}
      onDone={onDone}
      run={async () => {
        await apiData("POST", `${keysPath(editor)}/rename`, { from, to });
        editor.renamed(from, to);
      }}
    >
      <Field
        label="New name"
        required
        value={to}
        onInput={setTo}
        hint="Every language and the history follow."
      />
    </KeyForm>
  );
}

function DeleteKeys({ editor, keys, onClose, onDone }: DialogProps & { keys: string[] }) {
  return (
    <KeyForm
      title={keys.length > 1 ? `Delete ${keys.length} keys` : `Delete ${keys[0]}`}
      submit="Delete"
      onClose={onClose}
      onDone={onDone}
      run={async () => {
        await apiData("POST", `${keysPath(editor)}/delete`, { keys });
        editor.removed(keys);
      }}
    >
      <p>
        {keys.length > 1 ? `${keys.slice(0, 5).join(", ")}${keys.length > 5 ? "…" : ""}` : keys[0]}: deleted
        in every language. An admin or owner can restore {keys.length > 1 ? "them" : "it"} under Deleted keys.
      </p>
    </KeyForm>
  );
}

function DeletedKeys({ editor, onClose, onDone }: DialogProps) {
  const list = useAsync(() => apiData<DeletedKey[]>("GET", `${keysPath(editor)}/deleted`), []);
  const [error, setError] = useState("");
  return (
    <Dialog title="Deleted keys" onClose={onClose} wide>
      <Notice>{list.error || error}</Notice>
      {list.data && list.data.length === 0 && <p class="hint">No deleted key.</p>}
      <ul class="plain">
        {(list.data ?? []).map((d) => (
          <li key={d.key} class="row">
            <code>{d.key}</code>
            <span class="hint">
              {d.languages.join(", ")} · {actorName(d.deletedBy)} · {when(d.deletedAt)}
            </span>
            <div class="spacer" />
            <button
              type="button"
              aria-label={`Restore ${d.key}`}
              onClick={async () => {
                setError("");
                try {
                  await apiData("POST", `${keysPath(editor)}/restore`, { key: d.key });
                  await editor.showKey(d.key, `Restored ${d.key}`);
                  onDone();
                } catch (e) {
                  setError(messageOf(e));
                }
              }}
            >
              Restore
            </button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
