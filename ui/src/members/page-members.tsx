/** Members and roles: invite (the one-time link is shown to hand over), change role and languages, remove. */
import { useState } from "preact/hooks";
import { api, apiData, messageOf } from "../api.ts";
import { CopyField, linkOf } from "../base/copy-field.tsx";
import { Field, Notice } from "../base/field.tsx";
import { Shell } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { me, membership, type Role } from "../session.ts";

interface Member {
  userId: string;
  name: string;
  email: string;
  role: Role;
  languages: string[] | null;
}

interface Invitation {
  id: string;
  email: string;
  role: Role;
  languages: string[] | null;
  expiresAt?: string;
}

const ROLES: Role[] = ["owner", "admin", "developer", "reviewer", "translator"];
/**
 * The codes as typed, a bare language in lower case (`AR` → `ar`), as every project names one:
 * in another case it would name no project's language and leave it read-only. A tag with a region
 * or script stays as typed, since projects may spell it either way (`pt-BR`, `pt-br`).
 */
const parseLanguages = (text: string): string[] | null => {
  const list = text
    .split(/[\s,]+/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => (/^[a-z]{2,3}$/i.test(l) ? l.toLowerCase() : l));
  return list.length ? list : null;
};

function normalizeMember(raw: Record<string, unknown>): Member {
  const user = (raw.user ?? raw) as Record<string, unknown>;
  return {
    userId: String(raw.userId ?? user.id),
    name: String(user.name ?? ""),
    email: String(user.email ?? ""),
    role: raw.role as Role,
    languages: (raw.languages as string[] | null) ?? null,
  };
}

function MemberRow({ orgId, member, onChanged }: { orgId: string; member: Member; onChanged: () => void }) {
  const [role, setRole] = useState<Role>(member.role);
  const [languages, setLanguages] = useState((member.languages ?? []).join(", "));
  const [error, setError] = useState("");
  const [resetLink, setResetLink] = useState("");
  const self = member.userId === me.value?.id;
  const path = `/orgs/${encodeURIComponent(orgId)}/members/${encodeURIComponent(member.userId)}`;
  const changed =
    role !== member.role ||
    (parseLanguages(languages) ?? []).join(",") !== (member.languages ?? []).join(",");
  return (
    <tr>
      <td>
        <strong>{member.name}</strong>
        {self && <span class="hint"> (you)</span>}
        <br />
        <span class="hint">{member.email}</span>
      </td>
      <td>
        <select
          aria-label={`Role of ${member.name}`}
          value={role}
          onChange={(e) => setRole((e.currentTarget as HTMLSelectElement).value as Role)}
        >
          {ROLES.filter(
            (r) => r !== "owner" || membership.value?.role === "owner" || member.role === "owner",
          ).map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td>
        <input
          aria-label={`Languages of ${member.name}`}
          placeholder="all"
          value={languages}
          disabled={role !== "reviewer" && role !== "translator"}
          onInput={(e) => setLanguages((e.currentTarget as HTMLInputElement).value)}
        />
      </td>
      <td class="row">
        <button
          type="button"
          disabled={!changed}
          onClick={async () => {
            try {
              await api("PATCH", path, {
                role,
                languages: role === "reviewer" || role === "translator" ? parseLanguages(languages) : null,
              });
              setError("");
              onChanged();
            } catch (err) {
              setError(messageOf(err));
            }
          }}
        >
          Save
        </button>
        <button
          type="button"
          onClick={async () => {
            try {
              setResetLink(
                linkOf(await apiData<Record<string, unknown>>("POST", `${path}/password-reset`), "reset"),
              );
            } catch (err) {
              setError(messageOf(err));
            }
          }}
        >
          Reset link
        </button>
        {!self && (
          <button
            type="button"
            class="danger"
            onClick={async () => {
              if (!confirm(`Remove ${member.name} from the organization?`)) return;
              try {
                await api("DELETE", path);
                onChanged();
              } catch (err) {
                setError(messageOf(err));
              }
            }}
          >
            Remove
          </button>
        )}
        <Notice>{error}</Notice>
        {resetLink && (
          <CopyField
            label={`Password reset link for ${member.name}`}
            value={resetLink}
            hint="Valid 24 hours, once."
          />
        )}
      </td>
    </tr>
  );
}

function InviteForm({ orgId, onInvited }: { orgId: string; onInvited: () => void }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("translator");
  const [languages, setLanguages] = useState("");
  const [link, setLink] = useState("");
  const [error, setError] = useState("");
  return (
    <section class="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            const answer = await apiData<Record<string, unknown>>(
              "POST",
              `/orgs/${encodeURIComponent(orgId)}/invitations`,
              {
                email,
                role,
                languages: role === "reviewer" || role === "translator" ? parseLanguages(languages) : null,
              },
            );
            setLink(linkOf(answer, "invite"));
            setError("");
            setEmail("");
            onInvited();
          } catch (err) {
            setError(messageOf(err));
          }
        }}
      >
        <div class="row">
          <Field label="Email" type="email" required value={email} onInput={setEmail} />
          <div class="field">
            <label for="invite-role">Role</label>
            <select
              id="invite-role"
              value={role}
              onChange={(e) => setRole((e.currentTarget as HTMLSelectElement).value as Role)}
            >
              {ROLES.filter((r) => r !== "owner" || membership.value?.role === "owner").map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <Field
            label="Languages"
            placeholder="all"
            value={languages}
            onInput={setLanguages}
            disabled={role !== "reviewer" && role !== "translator"}
          />
        </div>
        <button type="submit" class="primary">
          Create invitation
        </button>
      </form>
      <Notice>{error}</Notice>
      {link && (
        <CopyField
          label="Invitation link"
          value={link}
          hint="Hand this link over; it works once, for 7 days."
        />
      )}
    </section>
  );
}

export function PageMembers() {
  const org = membership.value;
  const orgId = org?.orgId ?? "";
  const members = useAsync(
    async () =>
      (await apiData<Record<string, unknown>[]>("GET", `/orgs/${encodeURIComponent(orgId)}/members`)).map(
        normalizeMember,
      ),
    [orgId],
  );
  const invitations = useAsync(
    () => apiData<Invitation[]>("GET", `/orgs/${encodeURIComponent(orgId)}/invitations`),
    [orgId],
  );
  return (
    <Shell title="Members">
      <h1>Members of {org?.orgName}</h1>
      <InviteForm orgId={orgId} onInvited={invitations.reload} />
      <section class="panel" aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <Notice>{members.error}</Notice>
        <table>
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Role</th>
              <th scope="col">Languages (reviewers, translators)</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(members.data ?? []).map((m) => (
              <MemberRow
                key={`${m.userId}-${m.role}-${(m.languages ?? []).join()}`}
                orgId={orgId}
                member={m}
                onChanged={members.reload}
              />
            ))}
          </tbody>
        </table>
      </section>
      <section class="panel" aria-labelledby="invitations-title">
        <h2 id="invitations-title">Open invitations</h2>
        <Notice>{invitations.error}</Notice>
        {invitations.data?.length === 0 && <p class="hint">None.</p>}
        <ul class="plain">
          {(invitations.data ?? []).map((i) => (
            <li key={i.id} class="row">
              {i.email} · {i.role}
              {i.languages ? ` (${i.languages.join(", ")})` : ""}
              <div class="spacer" />
              <button
                type="button"
                onClick={async () => {
                  await api(
                    "DELETE",
                    `/orgs/${encodeURIComponent(orgId)}/invitations/${encodeURIComponent(i.id)}`,
                  );
                  invitations.reload();
                }}
              >
                Withdraw
              </button>
            </li>
          ))}
        </ul>
      </section>
    </Shell>
  );
}
