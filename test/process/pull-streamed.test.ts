/**
 * The real server under Bun streams large files as text pieces its listener writes as UTF-8
 * (Host.writesTextChunks, server/file-body.ts): every format's bytes over the socket are the
 * whole render's, with right-to-left, CJK, Indic and astral text and what XML escapes. Deno, which
 * is given encoded pieces, is checked the same way in deno.test.ts.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  admin,
  bootstrapKey,
  bootstrapOrg,
  type ServerProcess,
  startSqliteServerProcess,
  stopServerProcess,
} from "../support/process.ts";
import { expectStreamedFiles, pushOverHttp } from "../support/streamed-files.ts";
import { worldNames } from "../support/world-names.ts";

let server: ServerProcess;
let db: { PARLANCE_DATABASE_URL: string };

beforeAll(async () => {
  ({ server, db } = await startSqliteServerProcess());
});

afterAll(() => stopServerProcess(server));

test("every format streams the bytes of its whole render, in many scripts", async () => {
  const key = bootstrapKey(server.stderr()) as string;
  const project = await admin<{ id: string }>(
    [
      "project",
      "create",
      "--org",
      bootstrapOrg(server.stderr()) as string,
      "--name",
      "World Names",
      "--base",
      "en",
      "--languages",
      "fr",
    ],
    db,
  );
  const { en, fr } = await worldNames();
  await pushOverHttp(server.baseUrl, key, { projectId: project.id, language: "en", content: en });
  await pushOverHttp(server.baseUrl, key, {
    projectId: project.id,
    language: "fr",
    content: fr,
    status: "pending",
  });
  const view = { id: project.id, name: "World Names", baseLanguage: "en", languages: ["en", "fr"] };
  await expectStreamedFiles(server.baseUrl, key, view, en, fr, "pending");
  expect(Object.keys(fr).length).toBeGreaterThan(5000);
}, 60_000);
