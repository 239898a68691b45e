/**
 * The isolation matrix (issue 10): for every endpoint that takes a project, job or translation id,
 * a key of organization B using organization A's ids gets exactly what a random id gets: 404 with
 * the same body (the id itself aside).
 */
import { expect, test } from "bun:test";
import { forEachStore, type TestServer, useWorld, type World } from "../support/harness.ts";

type Init = RequestInit & { key?: string; json?: unknown };
type Case = [name: string, make: (ids: Ids) => [string, Init?]];

interface Ids {
  projectId: string;
  jobId: string;
  translationId: string;
  /** B's own project, where an id list of A's translations must select nothing. */
  ownProjectId: string;
}

const CASES: Case[] = [
  ["GET /project", (i) => [`/api/v1/project?project_id=${i.projectId}`]],
  ["GET /pull", (i) => [`/api/v1/pull?project_id=${i.projectId}&language=fr`]],
  ["GET /export", (i) => [`/api/v1/export?project_id=${i.projectId}&language=fr`]],
  ["GET /coverage", (i) => [`/api/v1/coverage?project_id=${i.projectId}`]],
  ["GET /translations", (i) => [`/api/v1/translations?project_id=${i.projectId}&language=fr`]],
  ["GET /jobs/{jobId}", (i) => [`/api/v1/jobs/${i.jobId}`]],
  [
    "POST /push",
    (i) => [
      "/api/v1/push",
      { method: "POST", json: { projectId: i.projectId, language: "fr", content: '{"x":"y"}' } },
    ],
  ],
  [
    "POST /push (dry run)",
    (i) => [
      "/api/v1/push",
      {
        method: "POST",
        json: { projectId: i.projectId, language: "fr", content: '{"x":"y"}', dryRun: true },
      },
    ],
  ],
  [
    "POST /import",
    (i) => [
      "/api/v1/import",
      { method: "POST", json: { projectId: i.projectId, language: "fr", content: "{}" } },
    ],
  ],
  [
    "GET /pull selected_ids",
    (i) => [
      `/api/v1/pull?project_id=${i.ownProjectId}&language=fr&selected_ids=${encodeURIComponent(JSON.stringify([i.translationId]))}`,
    ],
  ],
];

await forEachStore((kind) => {
  let w: World;
  useWorld(kind, (world) => {
    w = world;
  });
  const s = (): TestServer => w.s;

  test("another organization's ids answer exactly like random ones", async () => {
    const pushed = await s().request("/api/v1/push", {
      method: "POST",
      key: w.key,
      json: { projectId: w.projectId, language: "fr", content: '{"hello":"bonjour"}' },
    });
    const { jobId } = (await pushed.json()) as { jobId: string };
    await s().idle();
    const rows = await s().request(`/api/v1/translations?project_id=${w.projectId}&language=fr`, {
      key: w.key,
    });
    const translationId = ((await rows.json()) as { data: { id: string }[] }).data[0]?.id as string;
    expect(translationId).toBeString();

    const orgB = await s().seed.org();
    const keyB = (await s().seed.key(orgB.id)).key;
    const ownB = await s().seed.project(orgB.id);
    await s().request("/api/v1/push", {
      method: "POST",
      key: keyB,
      json: { projectId: ownB.id, language: "fr", content: '{"mine":"à moi"}' },
    });
    await s().idle();

    const ofA: Ids = { projectId: w.projectId, jobId, translationId, ownProjectId: ownB.id };
    const random: Ids = {
      projectId: crypto.randomUUID(),
      jobId: crypto.randomUUID(),
      translationId: crypto.randomUUID(),
      ownProjectId: ownB.id,
    };
    const answer = async (ids: Ids, make: Case[1]) => {
      const [path, init] = make(ids);
      const res = await s().request(path, { ...init, key: keyB });
      let body = await res.text();
      for (const id of [ids.projectId, ids.jobId, ids.translationId]) body = body.replaceAll(id, "<id>");
      return { status: res.status, body };
    };
    for (const [name, make] of CASES) {
      const a = await answer(ofA, make);
      const r = await answer(random, make);
      expect({ name, ...a }).toEqual({ name, ...r });
      expect({ name, status: a.status }).toEqual({ name, status: 404 });
    }
    // Nothing of A changed through B's attempts.
    const after = await s().request(`/api/v1/pull?project_id=${w.projectId}&language=fr`, { key: w.key });
    expect(await after.json()).toEqual({ hello: "bonjour" });
  });
});
