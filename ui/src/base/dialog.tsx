/**
 * A modal dialog on the native <dialog> element: focus moves in and is kept there by the browser,
 * Esc closes it, it is labelled by its title, and on closing the focus goes back where it was.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

interface DialogProps {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
}

export function Dialog({ title, onClose, children, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    // The browser hands the focus back only when the dialog closes while still in the page; this
    // one is removed with its owner, so the element that had the focus (a grid cell, the button
    // that opened it) takes it back here, or the keyboard would be left on <body>.
    const opener = document.activeElement;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      const now = document.activeElement;
      const lost = !now || now === document.body || !!dialog?.contains(now);
      if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={wide ? "wide" : undefined}
      aria-labelledby={id}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header class="dialog-head">
        <h2 id={id}>{title}</h2>
        <button type="button" class="icon" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}
