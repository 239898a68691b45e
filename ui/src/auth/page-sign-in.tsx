import { useState } from "preact/hooks";
import { apiData, messageOf } from "../api.ts";
import { Field, Notice } from "../base/field.tsx";
import { Card } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { navigate, route } from "../router.ts";
import { signIn } from "../session.ts";

export function PageSignIn() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  // While no one has an account, the way in is the setup link the server printed.
  const setup = useAsync(
    () => apiData<{ needed: boolean }>("GET", "/setup").catch(() => ({ needed: false })),
    [],
  );
  return (
    <Card title="Sign in">
      {setup.data?.needed && (
        <p class="notice ok" role="status">
          No account exists yet. Open the one-time setup link that <code>parlance serve</code> printed when it
          started (it ends with <code>/setup#…</code>) to create the first owner.
        </p>
      )}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError("");
          try {
            await signIn(email, password);
            const next = route.value.query.get("next");
            navigate(next?.startsWith("/") && !next.startsWith("//") ? next : "/", { replace: true });
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Email" type="email" autocomplete="username" required value={email} onInput={setEmail} />
        <Field
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={setPassword}
        />
        <Notice>{error}</Notice>
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      <p class="hint">
        Forgot your password? An administrator of your organization can give you a reset link.
      </p>
    </Card>
  );
}
