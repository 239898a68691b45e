/** A labelled form control: the label names the control for screen readers and tests alike. */
import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

interface FieldProps {
  type?: "text" | "email" | "password" | "search" | "number" | "url";
  autocomplete?: string;
  required?: boolean;
  minLength?: number;
  placeholder?: string;
  disabled?: boolean;
  label: string;
  hint?: string;
  value: string;
  onInput: (value: string) => void;
}

export function Field({ label, hint, value, onInput, ...input }: FieldProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        value={value}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...(input as Record<string, unknown>)}
      />
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** An error or success line announced to screen readers. */
export function Notice({ kind = "error", children }: { kind?: "error" | "ok"; children: ComponentChildren }) {
  if (!children) return null;
  return (
    <p class={`notice ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}
