/** The signed-in person's own page: change password, see and revoke sessions. */
import { useState } from "preact/hooks";
import { api, apiData, messageOf } from "../api.ts";
import { Field, Notice } from "../base/field.tsx";
import { Shell } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { me } from "../session.ts";

interface Session {
  id: string;
  createdAt: string;
  lastUsedAt?: string | null;
  expiresAt?: string | null;
  userAgent?: string | null;
  current?: boolean;
}

const when = (iso?: string | null) => (iso ? new Date(iso).toLocaleString() : "—");

export function PageAccount() {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [message, setMessage] = useState({ kind: "ok" as "ok" | "error", text: "" });
  const sessions = useAsync(() => apiData<Session[]>("GET", "/me/sessions"), []);
  return (
    <Shell title="Account">
      <h1>Account</h1>
      <p>
        Signed in as <strong>{me.value?.name}</strong> ({me.value?.email}).
      </p>
      <section aria-labelledby="password-title" class="panel">
        <h2 id="password-title">Change password</h2>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            try {
              await api("POST", "/me/password", { currentPassword: current, newPassword: next });
              setCurrent("");
              setNext("");
              setMessage({ kind: "ok", text: "Password changed. Your other sessions were signed out." });
              sessions.reload();
            } catch (err) {
              setMessage({ kind: "error", text: messageOf(err) });
            }
          }}
        >
          <Field
            label="Current password"
            type="password"
            autocomplete="current-password"
            required
            value={current}
            onInput={setCurrent}
          />
          <Field
            label="New password"
            type="password"
            autocomplete="new-password"
            required
            minLength={10}
            hint="At least 10 characters, not a common password."
            value={next}
            onInput={setNext}
          />
          <Notice kind={message.kind}>{message.text}</Notice>
          <button type="submit" class="primary">
            Change password
          </button>
        </form>
      </section>
      <section aria-labelledby="sessions-title" class="panel">
        <h2 id="sessions-title">Sessions</h2>
        <Notice>{sessions.error}</Notice>
        <table>
          <caption class="sr-only">Your sessions</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(sessions.data ?? []).map((s) => (
              <tr key={s.id}>
                <td>
                  {s.userAgent ?? "Unknown browser"}
                  {s.current && <span class="chip approved"> this session</span>}
                </td>
                <td>{when(s.createdAt)}</td>
                <td>{when(s.lastUsedAt)}</td>
                <td>
                  {!s.current && (
                    <button
                      type="button"
                      onClick={async () => {
                        await api("DELETE", `/me/sessions/${encodeURIComponent(s.id)}`);
                        sessions.reload();
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Shell>
  );
}
