/** A secret or link shown once, read-only, with a button that copies it. */
import { useId, useRef, useState } from "preact/hooks";
import { CopyIcon } from "./icons.tsx";

export function CopyField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // Outside a secure context the clipboard API is missing: copy the selection instead.
      input.current?.select();
      document.execCommand("copy");
    }
    setCopied(true);
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="row">
        <input
          id={id}
          ref={input}
          class="mono grow"
          readOnly
          value={value}
          onFocus={(e) => (e.currentTarget as HTMLInputElement).select()}
        />
        <button type="button" onClick={copy}>
          <CopyIcon /> {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {hint && <small class="hint">{hint}</small>}
    </div>
  );
}

/** The full link of a one-time token, whatever part of it the API answered with. */
export function linkOf(answer: Record<string, unknown>, page: string): string {
  const link = answer.link ?? answer.url;
  if (typeof link === "string") return link;
  return `${window.location.origin}/${page}#${String(answer.token ?? "")}`;
}
