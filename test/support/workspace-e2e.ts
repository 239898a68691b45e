/**
 * A real Parlance for the workspace's browser tests: `parlance serve` as a process on SQLite (a
 * temporary file, so operator commands reach the same store) or on Postgres (a schema of its own),
 * with the setup link and the bootstrap key it prints, and the few calls tests use to set the
 * scene through the public API and the operator commands (never a back door).
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createTestSchema, type TestSchema } from "../storage/postgres-setup.ts";
import {
  admin,
  bootstrapKey,
  bootstrapOrg,
  CLI,
  REPO,
  type ServerProcess,
  startServerProcess,
  tempDir,
} from "./process.ts";

export interface WorkspaceServer {
  origin: string;
  server: ServerProcess;
  env: Record<string, string>;
  setupLink: string;
  /** The bootstrap API key (every scope) and its organization. */
  key: string;
  orgId: string;
  stop(): Promise<void>;
}

/** `bunFlags`: extra `bun` flags for the server (the bench's profiling flags). */
export async function startWorkspaceServer(
  store: "sqlite" | "postgres" = "sqlite",
  bunFlags: readonly string[] = [],
): Promise<WorkspaceServer> {
  let schema: TestSchema | undefined;
  let url: string;
  if (store === "postgres") {
    schema = await createTestSchema();
    const u = new URL(process.env.PARLANCE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test");
    u.searchParams.set("search_path", schema.name);
    url = u.toString();
  } else url = `sqlite:${join(tempDir("parlance-ui-"), "db.sqlite")}`;
  const env = { PARLANCE_DATABASE_URL: url };
  const server = await startServerProcess(env, REPO, ["bun", ...bunFlags, CLI, "serve"]);
  const err = server.stderr();
  const setupLink = /(http\S+\/setup#\S+)/.exec(err)?.[1];
  const key = bootstrapKey(err);
  const orgId = bootstrapOrg(err);
  if (!setupLink || !key || !orgId) throw new Error(`no setup link or bootstrap key in:\n${err}`);
  const origin = new URL(server.baseUrl).origin;
  return {
    origin,
    server,
    env,
    // The link names the address the server listens on; the tests use the same one.
    setupLink: setupLink.replace(/^http:\/\/[^/]+/, origin),
    key,
    orgId,
    async stop() {
      server.proc.kill("SIGTERM");
      await server.exited;
      await schema?.drop();
    },
  };
}

export interface ProjectView {
  id: string;
  name: string;
  baseLanguage: string;
  languages: string[];
}

export const createProject = (s: WorkspaceServer, name: string, base: string, languages: string[]) =>
  admin<ProjectView>(
    [
      "project",
      "create",
      "--org",
      s.orgId,
      "--name",
      name,
      "--base",
      base,
      "--languages",
      languages.join(","),
    ],
    s.env,
  );

/** Pushes flat `content` into one language with the bootstrap key and waits for the job. */
export async function push(
  s: WorkspaceServer,
  projectId: string,
  language: string,
  content: Record<string, string>,
  status = "approved",
): Promise<void> {
  const headers = { authorization: `Bearer ${s.key}`, "content-type": "application/json" };
  const res = await fetch(`${s.origin}/api/v1/push`, {
    method: "POST",
    headers,
    body: JSON.stringify({ projectId, language, content: JSON.stringify(content), status }),
  });
  if (res.status !== 202) throw new Error(`push answered ${res.status}: ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  // A 50,000-key push (the bench's) takes a while on a busy machine: up to five minutes.
  for (const until = Date.now() + 300_000; Date.now() < until; ) {
    const job = (await (await fetch(`${s.origin}/api/v1/jobs/${jobId}`, { headers })).json()) as {
      data: { status: string; errorMessage: string | null };
    };
    if (job.data.status === "completed") return;
    if (job.data.status === "failed") throw new Error(`push failed: ${job.data.errorMessage}`);
    await Bun.sleep(50);
  }
  throw new Error("push did not finish");
}

export const OWNER = { name: "Olga Owner", email: "olga@example.com", password: "correct horse battery" };

/** The first-owner flow, as a person follows the printed link; ends on the dashboard, signed in. */
export async function setUpOwner(page: Page, s: WorkspaceServer): Promise<void> {
  await page.goto(s.setupLink);
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Create owner account" }).click();
  await page.getByRole("heading", { name: /^Projects/ }).waitFor();
}

export async function signIn(page: Page, s: WorkspaceServer, email: string, password: string): Promise<void> {
  await page.goto(`${s.origin}/signin`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: /^Projects/ }).waitFor();
}
