/**
 * The isolation matrix of /api/workspace (issue 11): a signed-in owner of organization B, using
 * organization A's ids (organization, project, job, member, invitation, API key, session, history
 * entry) in every operation of the workspace's OpenAPI document, gets exactly what a random id of
 * the same shape gets: the same status (404) and the same body. Nothing of A changes meanwhile.
 * Every operation is either a case here or named in WITHOUT_IDS with the reason, so a new route
 * cannot be forgotten.
 */
import { expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { type SignedInClient, signedIn, type WorkspaceInit } from "../support/signed-in.ts";

interface Ids {
  orgId: string;
  projectId: string;
  jobId: string;
  userId: string;
  invitationId: string;
  keyId: string;
  sessionId: string;
  entryId: string;
  /** B's own organization and project, where A's inner ids must find nothing. */
  ownOrgId: string;
  ownProjectId: string;
}

type Case = [operationId: string, make: (i: Ids) => [string, WorkspaceInit?], status?: number];

const W = "/api/workspace";
const post = (json: unknown): WorkspaceInit => ({ method: "POST", json });

const CASES: Case[] = [
  ["listMembers", (i) => [`${W}/orgs/${i.orgId}/members`]],
  [
    "changeMember",
    (i) => [`${W}/orgs/${i.orgId}/members/${i.userId}`, { method: "PATCH", json: { role: "admin" } }],
  ],
  [
    "changeMember",
    (i) => [`${W}/orgs/${i.ownOrgId}/members/${i.userId}`, { method: "PATCH", json: { role: "admin" } }],
  ],
  ["removeMember", (i) => [`${W}/orgs/${i.orgId}/members/${i.userId}`, { method: "DELETE" }]],
  ["removeMember", (i) => [`${W}/orgs/${i.ownOrgId}/members/${i.userId}`, { method: "DELETE" }]],
  ["createPasswordReset", (i) => [`${W}/orgs/${i.orgId}/members/${i.userId}/password-reset`, post({})]],
  ["createPasswordReset", (i) => [`${W}/orgs/${i.ownOrgId}/members/${i.userId}/password-reset`, post({})]],
  [
    "createInvitation",
    (i) => [`${W}/orgs/${i.orgId}/invitations`, post({ email: "mallory@example.com", role: "owner" })],
  ],
  ["listInvitations", (i) => [`${W}/orgs/${i.orgId}/invitations`]],
  ["revokeInvitation", (i) => [`${W}/orgs/${i.orgId}/invitations/${i.invitationId}`, { method: "DELETE" }]],
  [
    "revokeInvitation",
    (i) => [`${W}/orgs/${i.ownOrgId}/invitations/${i.invitationId}`, { method: "DELETE" }],
  ],
  [
    "importFile",
    (i) => [`${W}/projects/${i.projectId}/imports`, post({ language: "fr", content: '{"hello":"x"}' })],
  ],
  [
    "importFile",
    (i) => [
      `${W}/projects/${i.projectId}/imports`,
      post({ language: "fr", content: '{"hello":"x"}', dryRun: true }),
    ],
  ],
  ["listProjectJobs", (i) => [`${W}/projects/${i.projectId}/jobs`]],
  ["getProjectJob", (i) => [`${W}/projects/${i.projectId}/jobs/${i.jobId}`]],
  ["getProjectJob", (i) => [`${W}/projects/${i.ownProjectId}/jobs/${i.jobId}`]],
  ["exportFile", (i) => [`${W}/projects/${i.projectId}/export?language=fr&format=json`]],
  ["exportFile", (i) => [`${W}/projects/${i.projectId}/export?language=fr&format=json&nested=true`]],
  ["listOrgApiKeys", (i) => [`${W}/orgs/${i.orgId}/api-keys`]],
  ["createOrgApiKey", (i) => [`${W}/orgs/${i.orgId}/api-keys`, post({ name: "stolen", scopes: ["admin"] })]],
  ["deactivateOrgApiKey", (i) => [`${W}/orgs/${i.orgId}/api-keys/${i.keyId}/deactivate`, post({})]],
  ["deactivateOrgApiKey", (i) => [`${W}/orgs/${i.ownOrgId}/api-keys/${i.keyId}/deactivate`, post({})]],
  ["listOrgProjects", (i) => [`${W}/orgs/${i.orgId}/projects`]],
  [
    "createOrgProject",
    (i) => [`${W}/orgs/${i.orgId}/projects`, post({ name: "Planted", baseLanguage: "en" })],
  ],
  ["getWorkspaceProject", (i) => [`${W}/projects/${i.projectId}`]],
  [
    "updateWorkspaceProject",
    (i) => [
      `${W}/projects/${i.projectId}`,
      { method: "PATCH", json: { name: "Renamed", addLanguages: ["it"] } },
    ],
  ],
  ["browseRecords", (i) => [`${W}/projects/${i.projectId}/records?languages=fr&q=hello`]],
  // A filter naming A's person in B's own project selects what a random person selects: nothing.
  [
    "browseRecords",
    (i) => [`${W}/projects/${i.ownProjectId}/records?language=fr&changedBy=${i.userId}`],
    200,
  ],
  [
    "editRecord",
    (i) => [
      `${W}/projects/${i.projectId}/records`,
      { method: "PUT", json: { key: "hello", language: "fr", value: "pwned", version: 2 } },
    ],
  ],
  [
    "bulkRecords",
    (i) => [
      `${W}/projects/${i.projectId}/records/bulk`,
      post({ language: "fr", action: "copy-base", overwrite: true, keys: ["hello"] }),
    ],
  ],
  ["recordHistory", (i) => [`${W}/projects/${i.projectId}/records/history?key=hello&language=fr`]],
  [
    "revertRecord",
    (i) => [
      `${W}/projects/${i.projectId}/records/revert`,
      post({ key: "hello", language: "fr", entryId: i.entryId, version: 2 }),
    ],
  ],
  // A's history entry, reverting B's own record of the same key: as unknown as a random entry.
  [
    "revertRecord",
    (i) => [
      `${W}/projects/${i.ownProjectId}/records/revert`,
      post({ key: "hello", language: "fr", entryId: i.entryId, version: 1 }),
    ],
  ],
  ["projectActivity", (i) => [`${W}/projects/${i.projectId}/activity`]],
  ["recordCoverage", (i) => [`${W}/projects/${i.projectId}/coverage`]],
  ["addKey", (i) => [`${W}/projects/${i.projectId}/keys`, post({ key: "planted", baseValue: "x" })]],
  ["renameKey", (i) => [`${W}/projects/${i.projectId}/keys/rename`, post({ from: "hello", to: "bye" })]],
  ["deleteKeys", (i) => [`${W}/projects/${i.projectId}/keys/delete`, post({ keys: ["hello"] })]],
  ["listDeletedKeys", (i) => [`${W}/projects/${i.projectId}/keys/deleted`]],
  ["restoreKey", (i) => [`${W}/projects/${i.projectId}/keys/restore`, post({ key: "gone" })]],
  ["revokeSession", (i) => [`${W}/me/sessions/${i.sessionId}`, { method: "DELETE" }]],
];

/**
 * Operations that take no id of an organization's things: they act on the caller's own account
 * (its sessions are a case above), or on a one-time token, a bearer secret whose holder is meant to
 * use it whatever their organization (workspace-invitations.test.ts covers those tokens).
 */
const WITHOUT_IDS: Record<string, string> = {
  signIn: "email and password",
  signOut: "the caller's own session",
  getMe: "the caller",
  updateMe: "the caller",
  changePassword: "the caller",
  listSessions: "the caller's own sessions",
  getSetup: "whether the store has a user",
  completeSetup: "one-time setup token",
  lookupInvitation: "one-time invitation token",
  acceptInvitation: "one-time invitation token",
  completePasswordReset: "one-time reset token",
};

/**
 * A random id of the same shape: every hex digit of a UUID-like id replaced, separators kept; a
 * history entry's id (a sequence number) becomes one far beyond any entry of this test.
 */
function lookalike(id: string): string {
  if (/^\d+$/.test(id)) return String(1_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
  return id.replace(/[0-9a-f]/g, () => "0123456789abcdef"[Math.floor(Math.random() * 16)] as string);
}

const dataOf = async (res: Response) => {
  if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: unknown }).data;
};

/** Organization A: a project with records, a push job, history, a deleted key, a member, an invitation, a key. */
async function seedA(s: TestServer) {
  const orgId = (await s.seed.org("Alpha")).id;
  const projectId = (await s.seed.project(orgId, { base: "en", languages: ["en", "fr"] })).id;
  const ana = await signedIn(s, { orgId, role: "owner" });
  const bob = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
  const p = `${W}/projects/${projectId}`;
  await ana.fetch(`${p}/imports`, post({ language: "en", content: '{"hello":"Hello","gone":"Gone"}' }));
  const { jobId } = (await dataOf(
    await ana.fetch(`${p}/imports`, post({ language: "fr", content: '{"hello":"Bonjour"}' })),
  )) as { jobId: string };
  await s.idle();
  await dataOf(
    await ana.fetch(`${p}/records`, {
      method: "PUT",
      json: { key: "hello", language: "fr", value: "Salut", version: 1 },
    }),
  );
  await dataOf(await ana.fetch(`${p}/keys/delete`, post({ keys: ["gone"] })));
  const entries = (await (await ana.fetch(`${p}/records/history?key=hello&language=fr`)).json()) as {
    data: { id: string }[];
  };
  const invitation = (await dataOf(
    await ana.fetch(`${W}/orgs/${orgId}/invitations`, post({ email: "dora@example.com", role: "reviewer" })),
  )) as { id: string };
  const apiKey = (await dataOf(
    await ana.fetch(`${W}/orgs/${orgId}/api-keys`, post({ name: "ci", scopes: ["translations:read"] })),
  )) as { id: string };
  const sessions = (await dataOf(await ana.fetch(`${W}/me/sessions`))) as { id: string }[];
  return {
    ana,
    ids: {
      orgId,
      projectId,
      jobId,
      userId: bob.user.id,
      invitationId: invitation.id,
      keyId: apiKey.id,
      sessionId: sessions[0]?.id as string,
      entryId: entries.data.at(-1)?.id as string,
    },
  };
}

/** Everything A's owner sees of A, to compare before and after B's attempts. */
async function snapshot(ana: SignedInClient, ids: Omit<Ids, "ownOrgId" | "ownProjectId">) {
  const p = `${W}/projects/${ids.projectId}`;
  const paths = [
    `${W}/me/sessions`,
    `${W}/orgs/${ids.orgId}/members`,
    `${W}/orgs/${ids.orgId}/invitations`,
    `${W}/orgs/${ids.orgId}/api-keys`,
    `${W}/orgs/${ids.orgId}/projects`,
    p,
    `${p}/records`,
    `${p}/records/history?key=hello&language=fr`,
    `${p}/activity`,
    `${p}/keys/deleted`,
  ];
  const out: Record<string, unknown> = {};
  for (const path of paths) out[path] = await (await ana.fetch(path)).json();
  return out;
}

await forEachStore((kind) => {
  test("a member of another organization gets for A's ids exactly what random ids get", async () => {
    const s = await startTestServer(kind);
    try {
      const { ana, ids: a } = await seedA(s);
      const ownOrgId = (await s.seed.org("Beta")).id;
      const ownProjectId = (await s.seed.project(ownOrgId, { base: "en", languages: ["en", "fr"] })).id;
      const carol = await signedIn(s, { orgId: ownOrgId, role: "owner" });
      const own = `${W}/projects/${ownProjectId}`;
      await dataOf(await carol.fetch(`${own}/imports`, post({ language: "en", content: '{"hello":"Hi"}' })));
      await dataOf(
        await carol.fetch(`${own}/imports`, post({ language: "fr", content: '{"hello":"Salut"}' })),
      );
      await s.idle();

      const before = await snapshot(ana, a);
      const ofA: Ids = { ...a, ownOrgId, ownProjectId };
      const random: Ids = { ownOrgId, ownProjectId } as Ids;
      for (const [name, id] of Object.entries(a)) random[name as keyof typeof a] = lookalike(id);

      const answer = async (ids: Ids, make: Case[1]) => {
        const [path, init] = make(ids);
        const res = await carol.fetch(path, init);
        let body = await res.text();
        // Ids are masked in bodies (an Error object may name the id asked for); sequence numbers
        // are short enough to occur anywhere, and no answer here names an entry id.
        for (const [name, id] of Object.entries(ids))
          if (name !== "ownOrgId" && name !== "ownProjectId" && id.length >= 16)
            body = body.replaceAll(id, "<id>");
        return { status: res.status, body };
      };
      for (const [name, make, status = 404] of CASES) {
        const fromA = await answer(ofA, make);
        const fromRandom = await answer(random, make);
        expect({ name, path: make(ofA)[0], ...fromA }).toEqual({ name, path: make(ofA)[0], ...fromRandom });
        expect({ name, path: make(ofA)[0], status: fromA.status }).toEqual({
          name,
          path: make(ofA)[0],
          status,
        });
      }
      expect(await snapshot(ana, a)).toEqual(before);
    } finally {
      await s.close();
    }
  });
});

test("every operation of /api/workspace is in the matrix or says why it takes no such id", async () => {
  const s = await startTestServer("memory");
  try {
    const doc = (await (
      await s.app.handle(new Request("http://localhost/api/workspace/openapi.json"))
    ).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    const covered = new Set([...CASES.map(([name]) => name), ...Object.keys(WITHOUT_IDS)]);
    expect(operations.filter((op) => !covered.has(op))).toEqual([]);
    expect([...covered].filter((op) => !operations.includes(op))).toEqual([]);
  } finally {
    await s.close();
  }
});
