/** Completing a password reset from the link an administrator handed over. */
import { useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { Field, Notice } from "../base/field.tsx";
import { Card } from "../base/shell.tsx";
import { takeFragmentToken } from "../router.ts";

const token = { value: "" };

export function PageReset() {
  token.value ||= takeFragmentToken();
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!token.value)
    return (
      <Card title="Choose a new password">
        <Notice>This page needs the reset link you were given (it ends with #…).</Notice>
      </Card>
    );
  return (
    <Card title="Choose a new password">
      {done ? (
        <>
          <Notice kind="ok">Your password is set. Every earlier session has been signed out.</Notice>
          <a class="button primary" href="/signin">
            Sign in
          </a>
        </>
      ) : (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            setBusy(true);
            setError("");
            try {
              await api("POST", "/password-resets/complete", { token: token.value, password });
              setDone(true);
            } catch (err) {
              setError(messageOf(err));
            } finally {
              setBusy(false);
            }
          }}
        >
          <Field
            label="New password"
            type="password"
            autocomplete="new-password"
            required
            minLength={10}
            hint="At least 10 characters, not a common password."
            value={password}
            onInput={setPassword}
          />
          <Notice>{error}</Notice>
          <button type="submit" class="primary" disabled={busy}>
            Set password
          </button>
        </form>
      )}
    </Card>
  );
}
