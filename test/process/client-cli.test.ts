/**
 * CONTRACT §9 as a user meets it: the real `parlance` command, run as a process, against a real
 * server process on a temporary SQLite file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  admin,
  bootstrapKey,
  bootstrapOrg,
  CLI,
  runCli,
  type ServerProcess,
  shellEnv,
  startSqliteServerProcess,
  stopServerProcess,
  tempDir,
} from "../support/process.ts";

let server: ServerProcess;
let db: { PARLANCE_DATABASE_URL: string };
let key: string;
let orgId: string;
/** The client's settings through environment variables, as CI would set them. */
let env: Record<string, string>;

beforeAll(async () => {
  ({ server, db } = await startSqliteServerProcess());
  key = bootstrapKey(server.stderr()) as string;
  orgId = bootstrapOrg(server.stderr()) as string;
  env = { PARLANCE_BASE_URL: server.baseUrl, PARLANCE_API_KEY: key };
});

afterAll(() => stopServerProcess(server));

async function newProject(name = "My App"): Promise<string> {
  const project = await admin<{ id: string }>(
    ["project", "create", "--org", orgId, "--name", name, "--base", "en", "--languages", "fr,de"],
    db,
  );
  return project.id;
}

/** The API answered directly, to compare the command's output with. */
async function api(path: string): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
}

/** A working folder holding the given files. */
function folder(files: Record<string, unknown> = {}): string {
  const dir = tempDir("parlance-client-");
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  return dir;
}

const EN = { home: { title: "Welcome", body: "Hello" }, nav: { back: "Back" } };
const FR = { home: { title: "Bienvenue" }, nav: { back: "Retour" } };

/** A project with en and fr pushed through the API, for the commands that only read. */
async function filledProject(name: string): Promise<string> {
  const id = await newProject(name);
  const cwd = folder({ "en.json": EN, "fr.json": FR });
  for (const language of ["en", "fr"]) {
    const r = await runCli(
      ["push", "--project", id, "--language", language, "--file", `${language}.json`],
      env,
      cwd,
    );
    expect(r.code).toBe(0);
  }
  return id;
}

describe("whoami", () => {
  test("prints the key's name, the organization's name and id, and the scopes", async () => {
    const r = await runCli(["whoami"], env, folder());
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "Key:          bootstrap",
        `Organization: Default (${orgId})`,
        "Scopes:       admin, export:read, translations:read, translations:write",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe("");
  });

  test("--json prints the key info of GET /test", async () => {
    const r = await runCli(["whoami", "--json"], env, folder());
    const info = JSON.parse(r.stdout);
    const { data } = (await (await api("/api/v1/test")).json()) as { data: Record<string, unknown> };
    expect(info).toEqual({ ...data, usageCount: expect.any(Number) });
  });

  test("flags win over environment variables", async () => {
    const r = await runCli(["whoami", "--api-key", `pl_${"0".repeat(64)}`], env, folder());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^parlance: .+ \(HTTP 401\)\n$/);
  });
});

describe("push", () => {
  test("waits for the job: progress on stderr, the summary on stdout", async () => {
    const id = await newProject("Push Wait");
    const cwd = folder({ "en.json": EN });
    const r = await runCli(["push", "--project", id, "--language", "en", "--file", "en.json"], env, cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Imported into en: 3 created, 0 updated\n");
    const jobId = /job ([0-9a-f-]{36}) accepted/.exec(r.stderr)?.[1];
    expect(jobId).toBeDefined();
    expect(r.stderr).toContain(`job ${jobId} completed after`);
    const job = (await (await api(`/api/v1/jobs/${jobId}`)).json()) as { data: { status: string } };
    expect(job.data.status).toBe("completed");

    const again = await runCli(
      ["push", "--project", id, "--language", "en", "--file", "en.json", "--json"],
      env,
      cwd,
    );
    expect(JSON.parse(again.stdout)).toMatchObject({
      projectId: id,
      type: "import",
      status: "completed",
      summary: { created: 0, updated: 0 },
      errorMessage: null,
    });
  });

  test("--dry-run prints the preview and writes nothing", async () => {
    const id = await newProject("Push Dry");
    const cwd = folder({ "fr.json": FR });
    const args = ["push", "--project", id, "--language", "fr", "--file", "fr.json", "--dry-run"];
    const r = await runCli(args, env, cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "Dry run (merge into fr); nothing was written:",
        "  rows in file  2",
        "  to create     2",
        "  to update     0",
        "  unchanged     0",
        "",
      ].join("\n"),
    );
    const json = await runCli([...args, "--json"], env, cwd);
    expect(JSON.parse(json.stdout)).toEqual({
      dryRun: true,
      importMode: "merge",
      language: "fr",
      rowCount: 2,
      toCreate: 2,
      toUpdate: 0,
      unchanged: 0,
    });
    expect(await admin<unknown[]>(["translations", "list", "--project", id, "--language", "fr"], db)).toEqual(
      [],
    );
  });

  test("--no-wait prints the job id alone", async () => {
    const id = await newProject("Push NoWait");
    const cwd = folder({ "fr.json": FR });
    const r = await runCli(
      ["push", "--project", id, "--language", "fr", "--file", "fr.json", "--no-wait"],
      env,
      cwd,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/);
    const job = (await (await api(`/api/v1/jobs/${r.stdout.trim()}`)).json()) as {
      data: { projectId: string };
    };
    expect(job.data.projectId).toBe(id);
    // parlance wait picks the job up later, with push's own output and exit code.
    const waited = await runCli(["wait", "--job", r.stdout.trim()], env, cwd);
    expect(waited.code).toBe(0);
    expect(waited.stdout).toMatch(/^Imported: \d+ created, \d+ updated\n$/);
    const asJson = await runCli(["wait", "--job", r.stdout.trim(), "--json"], env, cwd);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ id: r.stdout.trim(), status: "completed" });
    const unknown = await runCli(["wait", "--job", crypto.randomUUID()], env, cwd);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("(HTTP 404)");
    const missing = await runCli(["wait"], env, cwd);
    expect(missing.code).toBe(2);
  });

  test("--status sets the rows' status; --mode replace deletes the keys the file lacks", async () => {
    const id = await newProject("Push Modes");
    const cwd = folder({ "fr.json": FR, "fr-small.json": { home: { title: "Salut" } } });
    const base = ["push", "--project", id, "--language", "fr"];
    expect((await runCli([...base, "--file", "fr.json", "--status", "draft"], env, cwd)).code).toBe(0);
    const rows = await admin<{ key: string; status: string }[]>(
      ["translations", "list", "--project", id, "--language", "fr"],
      db,
    );
    expect(rows.map((r) => [r.key, r.status])).toEqual([
      ["home.title", "draft"],
      ["nav.back", "draft"],
    ]);

    const preview = await runCli(
      [...base, "--file", "fr-small.json", "--mode", "replace", "--dry-run"],
      env,
      cwd,
    );
    expect(preview.stdout).toContain("to delete     1");
    const r = await runCli([...base, "--file", "fr-small.json", "--mode", "replace"], env, cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Imported into fr: 0 created, 1 updated, 1 deleted\n");
    const after = await admin<{ key: string; value: string; status: string }[]>(
      ["translations", "list", "--project", id, "--language", "fr"],
      db,
    );
    expect(after.map((t) => [t.key, t.value, t.status])).toEqual([["home.title", "Salut", "approved"]]);
  });

  test("--file - reads the content from stdin", async () => {
    const id = await newProject("Push Stdin");
    const cwd = folder();
    const proc = Bun.spawn(
      [
        "bun",
        join(import.meta.dir, "..", "..", "server", "cli.ts"),
        "push",
        "--project",
        id,
        "--language",
        "de",
        "--file",
        "-",
      ],
      {
        cwd,
        env: { ...process.env, ...env },
        stdin: new TextEncoder().encode('{"a":"b"}'),
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    expect(await new Response(proc.stdout).text()).toBe("Imported into de: 1 created, 0 updated\n");
    expect(await proc.exited).toBe(0);
  });

  test("the server's refusal is printed and the exit code is 1", async () => {
    const id = await newProject("Push Refused");
    const cwd = folder({ "bad.json": "[1, 2]", "fr.json": FR });
    const notObject = await runCli(
      ["push", "--project", id, "--language", "fr", "--file", "bad.json"],
      env,
      cwd,
    );
    expect(notObject.code).toBe(1);
    expect(notObject.stdout).toBe("");
    expect(notObject.stderr).toMatch(/^parlance: .*object.* \(HTTP 400\)\n$/i);
    const badMode = await runCli(
      ["push", "--project", id, "--language", "fr", "--file", "fr.json", "--mode", "sideways"],
      env,
      cwd,
    );
    expect(badMode.code).toBe(1);
    expect(badMode.stderr).toContain("(HTTP 400)");
    const missing = await runCli(
      ["push", "--project", id, "--language", "fr", "--file", "nope.json"],
      env,
      cwd,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read nope.json");
    // The API's 413 names no figure: the client adds the limits and what to do.
    const rows = Object.fromEntries(Array.from({ length: 50_001 }, (_, i) => [`k${i}`, "x"]));
    writeFileSync(join(cwd, "many.json"), JSON.stringify(rows));
    const tooMany = await runCli(
      ["push", "--project", id, "--language", "fr", "--file", "many.json"],
      env,
      cwd,
    );
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toBe(
      "parlance: Payload too large (HTTP 413): a push holds at most 50,000 keys after flattening and 12 MiB of UTF-8 content; split the file by key prefix\n",
    );
  });
});

describe("pull", () => {
  let id: string;
  beforeAll(async () => {
    id = await filledProject("Pull Me");
  });

  test("writes the file named by Content-Disposition into the working folder", async () => {
    const cwd = folder();
    const r = await runCli(["pull", "--project", id, "--language", "fr"], env, cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(readdirSync(cwd)).toEqual(["pull-me.fr.json"]);
    const expected = await (await api(`/api/v1/pull?project_id=${id}&language=fr`)).text();
    expect(readFileSync(join(cwd, "pull-me.fr.json"), "utf8")).toBe(expected);
    expect(JSON.parse(expected)).toEqual({ "home.title": "Bienvenue", "nav.back": "Retour" });
    expect(r.stderr).toContain("wrote pull-me.fr.json");
  });

  test("each format: the server's file name and bytes, to a file and to stdout", async () => {
    const names = { json: "json", csv: "csv", xliff: "xlf", xml: "xml", yaml: "yaml" };
    for (const [format, ext] of Object.entries(names)) {
      const expected = await (await api(`/api/v1/pull?project_id=${id}&language=fr&format=${format}`)).text();
      const cwd = folder();
      const toFile = await runCli(
        ["pull", "--project", id, "--language", "fr", "--format", format],
        env,
        cwd,
      );
      expect(toFile.code).toBe(0);
      expect(readFileSync(join(cwd, `pull-me.fr.${ext}`), "utf8")).toBe(expected);
      const toStdout = await runCli(
        ["pull", "--project", id, "--language", "fr", "--format", format, "--out", "-"],
        env,
        cwd,
      );
      expect(toStdout.stderr).toBe("");
      expect(toStdout.code).toBe(0);
      expect(toStdout.stdout).toBe(expected);
      expect(toStdout.stderr).toBe("");
    }
  });

  test("--out FILE writes there (creating folders); --out DIR/ keeps the server's name", async () => {
    const cwd = folder();
    const r = await runCli(
      ["pull", "--project", id, "--language", "en", "--out", "locales/en/app.json"],
      env,
      cwd,
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, "locales", "en", "app.json"), "utf8"))).toEqual({
      "home.body": "Hello",
      "home.title": "Welcome",
      "nav.back": "Back",
    });
    mkdirSync(join(cwd, "out"));
    expect((await runCli(["pull", "--project", id, "--language", "en", "--out", "out"], env, cwd)).code).toBe(
      0,
    );
    expect(readdirSync(join(cwd, "out"))).toEqual(["pull-me.en.json"]);
  });

  test("--out through a symbolic link writes its file and keeps the link; to a pipe or device, writes to it", async () => {
    const cwd = folder();
    const pullTo = (out: string) =>
      runCli(["pull", "--project", id, "--language", "en", "--out", out], env, cwd);
    mkdirSync(join(cwd, "shared"));
    mkdirSync(join(cwd, "locales"));
    writeFileSync(join(cwd, "shared", "en.json"), "{}");
    symlinkSync(join("..", "shared", "en.json"), join(cwd, "locales", "en.json"));
    const r = await pullTo("locales/en.json");
    expect(r.code).toBe(0);
    expect(lstatSync(join(cwd, "locales", "en.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(cwd, "shared", "en.json"), "utf8"))).toMatchObject({
      "home.title": "Welcome",
    });
    // What is not a file (a pipe here; /dev/stdout or /dev/null alike) is written to, never replaced.
    const fifo = join(cwd, "pipe.json");
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    const reader = Bun.spawn(["cat", fifo], { stdout: "pipe" });
    const toPipe = await pullTo("pipe.json");
    expect(toPipe.code).toBe(0);
    expect(JSON.parse(await new Response(reader.stdout).text())).toMatchObject({ "home.title": "Welcome" });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(cwd).filter((name) => name.endsWith(".part"))).toEqual([]);
    // /dev/stdout when stdout is a pipe (as here, and in `parlance pull --out /dev/stdout | jq`).
    const toStdout = await pullTo("/dev/stdout");
    expect(toStdout.stderr).toBe("");
    expect(toStdout.code).toBe(0);
    expect(JSON.parse(toStdout.stdout)).toMatchObject({ "home.title": "Welcome" });
    expect(readdirSync(cwd).filter((name) => name.startsWith("pipe:"))).toEqual([]);
    // A link to a file not made yet: the file is made where the link points, the link kept.
    symlinkSync(join("..", "shared", "de.json"), join(cwd, "locales", "de.json"));
    const dangling = await pullTo("locales/de.json");
    expect(dangling.stderr).toContain("wrote");
    expect(dangling.code).toBe(0);
    expect(lstatSync(join(cwd, "locales", "de.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(cwd, "shared", "de.json"), "utf8"))).toMatchObject({
      "home.title": "Welcome",
    });
  });

  test("a reader that stops early (| head) ends the command with one line and exit 1, no stack trace", async () => {
    const big = await newProject("Piped");
    const cwd = folder();
    const rows = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key.${i}`, "x".repeat(40)]));
    writeFileSync(join(cwd, "en.json"), JSON.stringify(rows));
    expect(
      (await runCli(["push", "--project", big, "--language", "en", "--file", "en.json"], env, cwd)).code,
    ).toBe(0);
    const piped = Bun.spawn(
      [
        "bash",
        "-c",
        `bun '${CLI}' pull --project ${big} --language en --out - | head -c 10 >/dev/null; echo "exit \${PIPESTATUS[0]}"`,
      ],
      { cwd, env: { ...shellEnv(), ...env }, stdout: "pipe", stderr: "pipe" },
    );
    const [out, err] = await Promise.all([
      new Response(piped.stdout).text(),
      new Response(piped.stderr).text(),
    ]);
    await piped.exited;
    expect(out.trim()).toBe("exit 1");
    expect(err).toBe("parlance: stdout was closed before all the output was written (EPIPE)\n");
  });

  test("--environment applies that environment's overrides", async () => {
    await admin(
      [
        "env",
        "set",
        "--project",
        id,
        "--env",
        "staging",
        "--language",
        "fr",
        "--key",
        "nav.back",
        "--value",
        "Précédent",
      ],
      db,
    );
    const r = await runCli(
      ["pull", "--project", id, "--language", "fr", "--environment", "staging", "--out", "-"],
      env,
      folder(),
    );
    expect(JSON.parse(r.stdout)).toEqual({ "home.title": "Bienvenue", "nav.back": "Précédent" });
  });

  test("an unknown project or language: the server's 404 message, exit 1, no file", async () => {
    const cwd = folder();
    const unknown = await runCli(["pull", "--project", crypto.randomUUID(), "--language", "fr"], env, cwd);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toMatch(/^parlance: .*not found.* \(HTTP 404\)\n$/i);
    const noLanguage = await runCli(["pull", "--project", id, "--language", "pt"], env, cwd);
    expect(noLanguage.code).toBe(1);
    expect(noLanguage.stderr).toContain("(HTTP 404)");
    // A language of the project without any translation yet: the API's 404, and why.
    const empty = await runCli(["pull", "--project", id, "--language", "de"], env, cwd);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe(
      "parlance: No translations found (HTTP 404): de has no translations yet (a language just added has none until a push or an edit)\n",
    );
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe("status", () => {
  let id: string;
  beforeAll(async () => {
    id = await filledProject("Status App");
  });

  test("--json prints the coverage report object of GET /coverage", async () => {
    const r = await runCli(["status", "--project", id, "--json"], env, folder());
    expect(r.code).toBe(0);
    const { data } = (await (await api(`/api/v1/coverage?project_id=${id}`)).json()) as { data: unknown };
    expect(JSON.parse(r.stdout)).toEqual(data);
  });

  test("without --json, a table per language", async () => {
    const r = await runCli(["status", "--project", id], env, folder());
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `Status App (${id}): base en, 3 reference keys`,
        "",
        "LANGUAGE   COVERAGE  FILLED  MISSING",
        "en (base)      100%       3        0",
        "de               0%       0        3",
        "fr              66%       2        1",
        "",
      ].join("\n"),
    );
  });
});

describe("settings", () => {
  test("parlance.config.json is found from a nested working folder; pulled files land in the working folder", async () => {
    const id = await filledProject("Configured");
    const root = folder({
      "parlance.config.json": { baseUrl: `${server.baseUrl}/`, apiKey: key, projectId: id },
    });
    const nested = join(root, "packages", "web");
    mkdirSync(nested, { recursive: true });
    const noEnv = { PARLANCE_BASE_URL: "", PARLANCE_API_KEY: "" };

    const status = await runCli(["status", "--json"], noEnv, nested);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).projectId).toBe(id);
    const pull = await runCli(["pull", "--language", "fr"], noEnv, nested);
    expect(pull.code).toBe(0);
    expect(existsSync(join(nested, "configured.fr.json"))).toBe(true);
    expect((await runCli(["whoami"], noEnv, nested)).stdout).toContain("Key:          bootstrap");
  });

  test("the key from the environment, the server and project from the file", async () => {
    const id = await filledProject("Mixed Settings");
    const root = folder({ "parlance.config.json": { baseUrl: server.baseUrl, projectId: id } });
    const r = await runCli(["status", "--json"], { PARLANCE_BASE_URL: "", PARLANCE_API_KEY: key }, root);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).projectName).toBe("Mixed Settings");
  });

  test("missing settings and bad flags are usage errors (exit 2) before any request", async () => {
    const noEnv = { PARLANCE_BASE_URL: "", PARLANCE_API_KEY: "" };
    const cases: [string[], Record<string, string>, string][] = [
      [["whoami"], noEnv, "PARLANCE_BASE_URL"],
      [["whoami"], { ...noEnv, PARLANCE_BASE_URL: server.baseUrl }, "PARLANCE_API_KEY"],
      [["status"], env, "--project is required"],
      [["pull", "--project", crypto.randomUUID()], env, "--language is required"],
      [["push", "--project", crypto.randomUUID(), "--language", "fr"], env, "--file is required"],
      [["status", "--projet", "x"], env, "unknown option --projet"],
      [["status", "--project", "x", "--json", "yes"], env, "--json takes no value"],
    ];
    for (const [args, e, message] of cases) {
      const r = await runCli(args, e, folder());
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(message);
    }
  });

  test("a spent rate limit whose window ends in an hour fails at once with a clear message", async () => {
    const limited = await admin<{ key: string }>(
      [
        "key",
        "create",
        "--org",
        orgId,
        "--name",
        `limited-${crypto.randomUUID()}`,
        "--scopes",
        "admin",
        "--rate-limit",
        "1",
      ],
      db,
    );
    const e = { ...env, PARLANCE_API_KEY: limited.key };
    expect((await runCli(["whoami"], e, folder())).code).toBe(0);
    const started = Date.now();
    const r = await runCli(["whoami"], e, folder());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("(HTTP 429)");
    expect(r.stderr).toContain("try again after");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("against a misbehaving server", () => {
  /** A stand-in server answering from a script, for what a healthy server cannot be made to do on demand. */
  function stub(handler: (req: Request, n: number) => Response) {
    let n = 0;
    return Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => handler(req, n++) });
  }
  const rate = (reset: number) => ({
    "x-ratelimit-limit": "10",
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset": String(reset),
  });

  const job = (id: string, status: string, errorMessage: string | null = null) => ({
    data: {
      id,
      projectId: "p",
      type: "import",
      status,
      summary: { created: 2, updated: 0 },
      errorMessage,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    },
  });

  test("a failed job: its errorMessage on stderr, exit 1", async () => {
    const jobId = crypto.randomUUID();
    const s = stub((req) => {
      const path = new URL(req.url).pathname;
      if (path === "/api/v1/push")
        return Response.json({ jobId, runId: crypto.randomUUID() }, { status: 202 });
      return Response.json(job(jobId, "failed", "Translation quota exceeded"));
    });
    try {
      const cwd = folder({ "fr.json": FR });
      const r = await runCli(
        ["push", "--project", "p", "--language", "fr", "--file", "fr.json"],
        { PARLANCE_BASE_URL: `http://127.0.0.1:${s.port}`, PARLANCE_API_KEY: "k" },
        cwd,
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`parlance: job ${jobId} failed: Translation quota exceeded`);
    } finally {
      s.stop(true);
    }
  });

  test("a pull answered by something that is not Parlance (an HTML page with 200) writes nothing, exit 1", async () => {
    const s = stub(
      () =>
        new Response("<!doctype html><p>Welcome to nginx!</p>", { headers: { "content-type": "text/html" } }),
    );
    try {
      const cwd = folder();
      const r = await runCli(
        ["pull", "--project", "p", "--language", "fr"],
        { PARLANCE_BASE_URL: `http://127.0.0.1:${s.port}`, PARLANCE_API_KEY: "k" },
        cwd,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("the answer is text/html, not a json export (application/json)");
      expect(r.stderr).toContain("Nothing was written");
      expect(readdirSync(cwd)).toEqual([]);
    } finally {
      s.stop(true);
    }
  });

  test("progress on stderr while the job is pending and running", async () => {
    const jobId = crypto.randomUUID();
    const states = ["pending", "pending", "running", "running", "completed"];
    const s = stub((req, n) =>
      new URL(req.url).pathname === "/api/v1/push"
        ? Response.json({ jobId, runId: "r" }, { status: 202 })
        : Response.json(job(jobId, states[n - 1] ?? "completed")),
    );
    try {
      const r = await runCli(
        ["push", "--project", "p", "--language", "fr", "--file", "fr.json"],
        { PARLANCE_BASE_URL: `http://127.0.0.1:${s.port}`, PARLANCE_API_KEY: "k" },
        folder({ "fr.json": FR }),
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("Imported into fr: 2 created, 0 updated\n");
      expect(r.stderr.replace(/after \d+\.\d s/, "after N s")).toBe(
        [
          `parlance: job ${jobId} accepted; waiting for it to finish`,
          `parlance: job ${jobId} pending`,
          `parlance: job ${jobId} running`,
          `parlance: job ${jobId} completed after N s`,
          "",
        ].join("\n"),
      );
    } finally {
      s.stop(true);
    }
  });

  test("a key that may push but not poll: the user learns the push was accepted", async () => {
    const jobId = crypto.randomUUID();
    const s = stub((req) =>
      new URL(req.url).pathname === "/api/v1/push"
        ? Response.json({ jobId, runId: "r" }, { status: 202 })
        : Response.json({ error: "Missing scope translations:read" }, { status: 403 }),
    );
    try {
      const r = await runCli(
        ["push", "--project", "p", "--language", "fr", "--file", "fr.json"],
        { PARLANCE_BASE_URL: `http://127.0.0.1:${s.port}`, PARLANCE_API_KEY: "k" },
        folder({ "fr.json": FR }),
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("parlance: Missing scope translations:read (HTTP 403)");
      expect(r.stderr).toContain(`the push was accepted as job ${jobId}`);
    } finally {
      s.stop(true);
    }
  });

  test("503 then 429 then success: retried and waited through, only the answer on stdout", async () => {
    const s = stub((_req, n) => {
      if (n === 0) return Response.json({ error: "Storage unavailable" }, { status: 503 });
      if (n === 1)
        return Response.json(
          { error: "Rate limit exceeded" },
          { status: 429, headers: { ...rate(Math.ceil(Date.now() / 1000) + 1), "retry-after": "1" } },
        );
      return Response.json({
        success: true,
        data: {
          name: "ci",
          organization: { id: "o", name: "Acme" },
          scopes: [],
          rateLimit: 10,
          usageCount: 1,
        },
      });
    });
    try {
      const r = await runCli(
        ["whoami"],
        { PARLANCE_BASE_URL: `http://127.0.0.1:${s.port}`, PARLANCE_API_KEY: "k" },
        folder(),
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("Key:          ci\nOrganization: Acme (o)\nScopes:       (none)\n");
      expect(r.stderr).toContain("server answered 503; retrying");
      expect(r.stderr).toContain("rate limit reached; waiting");
    } finally {
      s.stop(true);
    }
  });
});
