/** API keys of the organization: create with scopes and rate limit (the key shown once), deactivate. */
import { useState } from "preact/hooks";
import { api, messageOf } from "../api.ts";
import { CopyField } from "../base/copy-field.tsx";
import { Field, Notice } from "../base/field.tsx";
import { Shell } from "../base/shell.tsx";
import { useAsync } from "../base/use-async.ts";
import { membership } from "../session.ts";
import { when } from "../types.ts";

interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  rateLimit: number;
  usageCount: number;
  active: boolean;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

const SCOPES = [
  { scope: "translations:read", label: "Read translations, jobs and coverage" },
  { scope: "translations:write", label: "Push (import) files" },
  { scope: "export:read", label: "Pull (export) files" },
  { scope: "admin", label: "Manage API keys" },
];

function CreateKey({ orgId, onCreated }: { orgId: string; onCreated: () => void }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["translations:read"]);
  const [rateLimit, setRateLimit] = useState("1000");
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState("");
  return (
    <section class="panel" aria-labelledby="new-key-title">
      <h2 id="new-key-title">New API key</h2>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            const answer = await api<{ data: ApiKeyInfo & { key: string } }>(
              "POST",
              `/orgs/${encodeURIComponent(orgId)}/api-keys`,
              {
                name,
                scopes,
                rateLimit: Number(rateLimit),
              },
            );
            setCreated({ name: answer.data.name, key: answer.data.key });
            setName("");
            setError("");
            onCreated();
          } catch (err) {
            setError(messageOf(err));
          }
        }}
      >
        <div class="row">
          <Field label="Name" required value={name} onInput={setName} />
          <Field
            label="Rate limit (requests per hour)"
            type="number"
            required
            value={rateLimit}
            onInput={setRateLimit}
          />
        </div>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <label key={s.scope} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(s.scope)}
                onChange={(e) =>
                  setScopes(
                    (e.currentTarget as HTMLInputElement).checked
                      ? [...scopes, s.scope]
                      : scopes.filter((x) => x !== s.scope),
                  )
                }
              />{" "}
              <code>{s.scope}</code> <span class="hint">{s.label}</span>
            </label>
          ))}
        </fieldset>
        <Notice>{error}</Notice>
        <button type="submit" class="primary" disabled={scopes.length === 0}>
          Create key
        </button>
      </form>
      {created && (
        <div class="panel">
          <CopyField
            label={`API key ${created.name}`}
            value={created.key}
            hint="This is the only time the key is shown. Store it now; Parlance keeps only its hash."
          />
          <button type="button" onClick={() => setCreated(null)}>
            Done, I stored it
          </button>
        </div>
      )}
    </section>
  );
}

export function PageApiKeys() {
  const orgId = membership.value?.orgId ?? "";
  const keys = useAsync(
    async () =>
      (await api<{ data: ApiKeyInfo[] }>("GET", `/orgs/${encodeURIComponent(orgId)}/api-keys?limit=100`))
        .data,
    [orgId],
  );
  return (
    <Shell title="API keys">
      <h1>API keys</h1>
      <CreateKey orgId={orgId} onCreated={keys.reload} />
      <section class="panel" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        <Notice>{keys.error}</Notice>
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Scopes</th>
              <th scope="col">Rate limit</th>
              <th scope="col">Used</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data ?? []).map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td class="mono">{k.prefix}…</td>
                <td>{k.scopes.join(", ")}</td>
                <td>{k.rateLimit}/h</td>
                <td>{k.usageCount}</td>
                <td>{when(k.lastUsedAt)}</td>
                <td>
                  {k.active ? (
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Deactivate ${k.name}`}
                      onClick={async () => {
                        if (!confirm(`Deactivate ${k.name}? Clients using it stop working at once.`)) return;
                        await api(
                          "POST",
                          `/orgs/${encodeURIComponent(orgId)}/api-keys/${encodeURIComponent(k.id)}/deactivate`,
                        );
                        keys.reload();
                      }}
                    >
                      Deactivate
                    </button>
                  ) : (
                    <span class="chip draft">inactive</span>
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
