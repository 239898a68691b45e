/** One record's history, newest first: who, when, old → new; any entry can be restored. */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, apiData, messageOf } from "../api.ts";
import { Notice } from "../base/field.tsx";
import { useAsync } from "../base/use-async.ts";
import { actorName, dirOf, type HistoryEntry, STATUS_LABEL, type TranslationRecord, when } from "../types.ts";
import type { Editor } from "./editor-state.ts";

export function HistoryPanel({ editor }: { editor: Editor }) {
  const target = editor.history.value;
  const [error, setError] = useState("");
  const [tick, setTick] = useState(0);
  const path = `/projects/${encodeURIComponent(editor.project.id)}/records`;
  const index = target ? editor.rows.value.findIndex((r) => r.key === target.key) : -1;
  const record = target ? (editor.rows.value[index]?.records[target.language] ?? null) : null;
  const entries = useAsync(async () => {
    // A string never written has no history to ask for (the server would answer 404).
    if (!target || !record) return [];
    const query = new URLSearchParams({ key: target.key, language: target.language });
    return apiData<HistoryEntry[]>("GET", `${path}/history?${query}`);
  }, [target?.key, target?.language, record === null, tick]);
  const panel = useRef<HTMLElement>(null);
  // Opened (H), the panel takes the focus, so Tab reaches its buttons without walking every cell;
  // Esc or × gives it back to the string.
  useEffect(() => {
    if (target) panel.current?.focus();
  }, [target?.key, target?.language]);
  if (!target) return null;
  const close = () => {
    editor.history.value = null;
    editor.focusRequest.value++;
  };
  return (
    <aside
      class="history panel"
      aria-labelledby="history-title"
      tabIndex={-1}
      ref={panel}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        close();
      }}
    >
      <div class="row">
        <h2 id="history-title">
          History of <code>{target.key}</code> in {target.language}
        </h2>
        <div class="spacer" />
        <button type="button" class="icon" aria-label="Close history" onClick={close}>
          ×
        </button>
      </div>
      <Notice>{entries.error || error}</Notice>
      {entries.data?.length === 0 && <p class="hint">No changes recorded.</p>}
      <ol class="plain">
        {(entries.data ?? []).map((entry) => (
          <li key={entry.id}>
            <div>
              <strong>{actorName(entry.actor)}</strong> <span class="hint">{when(entry.at)}</span>
            </div>
            {entry.old?.value === entry.new?.value && entry.old && entry.new ? (
              <div class="change hint">Text unchanged</div>
            ) : (
              // The line reads old → new in the page's direction; each text keeps its own.
              <div class="change">
                <del>
                  <bdi dir={dirOf(target.language)} lang={target.language}>
                    {entry.old?.value ?? "(none)"}
                  </bdi>
                </del>{" "}
                →{" "}
                <ins>
                  <bdi dir={dirOf(target.language)} lang={target.language}>
                    {entry.new?.value ?? "(deleted)"}
                  </bdi>
                </ins>
              </div>
            )}
            <div class="hint">
              {entry.old ? STATUS_LABEL[entry.old.status] : "created"} →{" "}
              {entry.new ? STATUS_LABEL[entry.new.status] : "deleted"}
            </div>
            {editor.mayEdit(target.language) && entry.new !== null && (
              <button
                type="button"
                onClick={async () => {
                  try {
                    const restored = await api<{ data?: TranslationRecord } & Partial<TranslationRecord>>(
                      "POST",
                      `${path}/revert`,
                      {
                        key: target.key,
                        language: target.language,
                        entryId: entry.id,
                        version: record?.version ?? 0,
                      },
                    );
                    const next = (restored?.data ?? restored) as TranslationRecord;
                    if (index >= 0 && next?.id) editor.replace(index, target.language, next);
                    setError("");
                    setTick((t) => t + 1);
                  } catch (err) {
                    setError(messageOf(err));
                  }
                }}
              >
                Revert to this
              </button>
            )}
          </li>
        ))}
      </ol>
    </aside>
  );
}
