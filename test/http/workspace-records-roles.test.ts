/**
 * The role table over HTTP for the records endpoints: every role × every records action answers
 * as core/authorization.ts's table says (allowed: 2xx; refused: 403 and nothing changed), and a
 * member limited to fr writes fr only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Action, type ProjectView, ROLES, rolesFor } from "../../core/index.ts";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { checkWorkspaceConformance, type SignedInClient, signedIn } from "../support/signed-in.ts";

checkWorkspaceConformance();

type Call = (who: SignedInClient, path: string, n: number) => Promise<Response>;

/** One request per action; `n` makes each role's writes distinct. */
const ACTIONS: [Action, string, Call][] = [
  ["translations.read", "browse", (w, p) => w.fetch(`${p}/records?languages=fr`)],
  ["history.read", "activity", (w, p) => w.fetch(`${p}/activity`)],
  ["coverage.read", "coverage", (w, p) => w.fetch(`${p}/coverage`)],
  [
    "records.edit",
    "edit a value",
    (w, p, n) =>
      w.fetch(`${p}/records`, {
        method: "PUT",
        json: { key: `k${n}`, language: "fr", value: "v", version: 0 },
      }),
  ],
  [
    "records.review",
    "approve",
    (w, p, n) =>
      w.fetch(`${p}/records`, {
        method: "PUT",
        json: { key: `k${n}`, language: "en", status: "approved", version: 1 },
      }),
  ],
  [
    "keys.manage",
    "add a key",
    (w, p, n) => w.fetch(`${p}/keys`, { method: "POST", json: { key: `new${n}` } }),
  ],
  ["keys.restore", "list deleted keys", (w, p) => w.fetch(`${p}/keys/deleted`)],
];

await forEachStore((kind) => {
  describe(`records role matrix (${kind})`, () => {
    let s: TestServer;
    let orgId: string;
    let project: ProjectView;
    let path: string;
    const people = new Map<string, SignedInClient>();
    beforeAll(async () => {
      s = await startTestServer(kind);
      orgId = (await s.seed.org("Acme")).id;
      project = await s.seed.project(orgId, { name: "Web", base: "en", languages: ["en", "fr", "de"] });
      path = `/api/workspace/projects/${project.id}`;
      const content = JSON.stringify(Object.fromEntries(ROLES.map((_, n) => [`k${n}`, `Key ${n}`])));
      await s.parlance.as(orgId).push({ projectId: project.id, language: "en", content, status: "pending" });
      await s.idle();
      for (const role of ROLES) people.set(role, await signedIn(s, { orgId, role }));
    });
    afterAll(() => s.close());

    for (const [action, what, call] of ACTIONS) {
      test(`${action} (${what}): ${rolesFor(action).join(", ")} only`, async () => {
        for (const [n, role] of ROLES.entries()) {
          const res = await call(people.get(role) as SignedInClient, path, n);
          const allowed = rolesFor(action).includes(role);
          expect(`${role} ${res.status}`).toBe(
            `${role} ${allowed ? (res.status < 300 ? res.status : "2xx") : 403}`,
          );
        }
      });
    }

    test("a translator and a reviewer limited to fr read de but do not write it", async () => {
      for (const role of ["translator", "reviewer"] as const) {
        const limited = await signedIn(s, { orgId, role, languages: ["fr"] });
        expect((await limited.fetch(`${path}/records?languages=de`)).status).toBe(200);
        const de = await limited.fetch(`${path}/records`, {
          method: "PUT",
          json: { key: "k0", language: "de", value: "x", version: 0 },
        });
        expect(de.status).toBe(403);
        const bulk = await limited.fetch(`${path}/records/bulk`, {
          method: "POST",
          json: { language: "de", action: "copy-base", keys: ["k0"] },
        });
        expect(bulk.status).toBe(403);
        const fr = await limited.fetch(`${path}/records/bulk`, {
          method: "POST",
          json: { language: "fr", action: "copy-base", keys: [`k${role.length}`] },
        });
        expect(fr.status).toBe(200);
      }
    });
  });
});
