/** The first owner's page, reached through the link `parlance serve` prints while no user exists. */
import { useState } from "preact/hooks";
import { api, apiData, messageOf } from "../api.ts";
import { Field, Notice } from "../base/field.tsx";
import { Card } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { navigate, takeFragmentToken } from "../router.ts";
import { loadMe, me, signIn } from "../session.ts";

const token = { value: "" };

export function PageSetup() {
  token.value ||= takeFragmentToken();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [organization, setOrganization] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  // The organization's name is asked only when setup creates one (the store holds none yet).
  const setup = useAsync(
    () =>
      apiData<{ organizationNeeded: boolean }>("GET", "/setup").catch(() => ({ organizationNeeded: true })),
    [],
  );
  if (!token.value)
    return (
      <Card title="Set up Parlance">
        <Notice>
          This page needs the setup link that the server printed at start (it ends with #…). Copy the whole
          link into the address bar.
        </Notice>
      </Card>
    );
  return (
    <Card title="Set up Parlance">
      <p>Create the first account. It becomes the owner of the organization.</p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError("");
          try {
            await api("POST", "/setup", {
              token: token.value,
              name,
              email,
              password,
              ...(organization ? { organizationName: organization } : {}),
            });
            await loadMe();
            if (!me.value) await signIn(email, password);
            navigate("/", { replace: true });
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Your name" autocomplete="name" required value={name} onInput={setName} />
        <Field label="Email" type="email" autocomplete="username" required value={email} onInput={setEmail} />
        <Field
          label="Password"
          type="password"
          autocomplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters, not a common password."
          value={password}
          onInput={setPassword}
        />
        {setup.data?.organizationNeeded && (
          <Field
            label="Organization name"
            hint="The server holds no organization yet: this creates it."
            value={organization}
            onInput={setOrganization}
          />
        )}
        <Notice>{error}</Notice>
        <button type="submit" class="primary" disabled={busy}>
          Create owner account
        </button>
      </form>
    </Card>
  );
}
