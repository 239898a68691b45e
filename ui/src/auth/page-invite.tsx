/** Accepting an invitation: the link's token names the organization, the role and the email. */
import { useState } from "preact/hooks";
import { api, apiData, messageOf } from "../api.ts";
import { Field, Notice } from "../base/field.tsx";
import { Card } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { navigate, takeFragmentToken } from "../router.ts";
import { loadMe, me, signIn } from "../session.ts";

interface Invitation {
  email: string;
  role: string;
  languages?: string[] | null;
  orgName?: string;
  organization?: { name: string };
}

const token = { value: "" };

export function PageInvite() {
  token.value ||= takeFragmentToken();
  const invitation = useAsync(
    () =>
      token.value
        ? apiData<Invitation>("POST", "/invitations/lookup", { token: token.value })
        : Promise.reject(new Error("This page needs the invitation link you were given (it ends with #…).")),
    [],
  );
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const invite = invitation.data;
  const signedInAsInvitee = !!invite && me.value?.email.toLowerCase() === invite.email.toLowerCase();
  const accept = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      await api(
        "POST",
        "/invitations/accept",
        signedInAsInvitee ? { token: token.value } : { token: token.value, name, password },
      );
      await loadMe();
      if (!me.value && invite) await signIn(invite.email, password);
      navigate("/", { replace: true });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Join an organization">
      {invitation.loading && <p>Checking the invitation…</p>}
      <Notice>{invitation.error}</Notice>
      {invite && (
        <form onSubmit={accept}>
          <p>
            You are invited to <strong>{invite.orgName ?? invite.organization?.name}</strong> as{" "}
            <strong>{invite.role}</strong>
            {invite.languages?.length ? ` for ${invite.languages.join(", ")}` : ""}, with the email{" "}
            <strong>{invite.email}</strong>.
          </p>
          {!signedInAsInvitee && (
            <>
              <Field label="Your name" autocomplete="name" required value={name} onInput={setName} />
              <Field
                label="Choose a password"
                type="password"
                autocomplete="new-password"
                required
                minLength={10}
                hint="At least 10 characters, not a common password."
                value={password}
                onInput={setPassword}
              />
            </>
          )}
          <Notice>{error}</Notice>
          <button type="submit" class="primary" disabled={busy}>
            Accept invitation
          </button>
        </form>
      )}
    </Card>
  );
}
