/**
 * The README's walkthrough, followed as a new user would: the server started with `bun run start`
 * on the default store (./data/parlance.sqlite in the user's folder), then every `sh` block of the
 * "Walkthrough" section run as written, in order, in one folder, each output compared with the
 * `json` block that follows it. The commands are read from README.md, so it cannot drift. The one
 * change: `localhost:8080` becomes the port this test's server got. Ids the README shows as `…`
 * are taken from the outputs, as the reader copies them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { expectDocsServed } from "../support/docs.ts";
import {
  bootstrapKey,
  bootstrapOrg,
  REPO,
  type ServerProcess,
  startServerProcess,
  tempDir,
} from "../support/process.ts";

interface Block {
  lang: string;
  text: string;
}

/** The fenced blocks of one `## ` section, list indentation removed. */
function sectionBlocks(markdown: string, heading: string): Block[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const end = markdown.indexOf("\n## ", start + 1);
  const lines = markdown.slice(start, end < 0 ? undefined : end).split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const [, indent = "", lang = ""] = open;
    const body: string[] = [];
    for (i++; !/^\s*```\s*$/.test(lines[i] as string); i++)
      body.push((lines[i] as string).slice(indent.length));
    blocks.push({ lang, text: body.join("\n") });
  }
  return blocks;
}

/** Shell commands of a block: continuation lines joined, blank lines and comments left out. */
const commands = (text: string): string[] =>
  text
    .replaceAll("\\\n", " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));

/** The README's sample against the real answer: `…` stands for any text; all else must be equal. */
function expectLike(actual: unknown, sample: unknown, path = "$"): void {
  if (typeof sample === "string" && sample.includes("…")) {
    expect(typeof actual, path).toBe("string");
    expect((actual as string).length, path).toBeGreaterThan(0);
  } else if (Array.isArray(sample)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, path).toBe(sample.length);
    for (const [i, s] of sample.entries()) expectLike((actual as unknown[])[i], s, `${path}[${i}]`);
  } else if (sample !== null && typeof sample === "object") {
    expect(actual !== null && typeof actual === "object" && !Array.isArray(actual), path).toBe(true);
    const a = actual as Record<string, unknown>;
    expect(Object.keys(a).sort(), path).toEqual(Object.keys(sample).sort());
    for (const [k, s] of Object.entries(sample)) expectLike(a[k], s, `${path}.${k}`);
  } else expect(actual, path).toEqual(sample);
}

let server: ServerProcess;
/** The user's folder: the repository's files linked, the data folder its own. */
let home: string;

beforeAll(async () => {
  home = tempDir("parlance-readme-");
  for (const name of [
    "package.json",
    "bun.lock",
    "bunfig.toml",
    "tsconfig.json",
    "core",
    "storage",
    "adapters",
    "server",
    "ui",
    "node_modules",
  ])
    symlinkSync(join(REPO, name), join(home, name));
  // PARLANCE_DATABASE_URL unset, as in a fresh shell: the default store in the working folder.
  server = await startServerProcess({ PARLANCE_DATABASE_URL: "" }, home, ["bun", "run", "start"]);
});

afterAll(async () => {
  server.proc.kill("SIGTERM");
  await server.exited;
});

test("the README's walkthrough, run as written, ends with en and fr, a meaningful coverage, a nested file and the API reference", async () => {
  expect(Bun.which("curl")).not.toBeNull();
  expect(Bun.which("jq")).not.toBeNull();
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const blocks = sectionBlocks(readme, "Walkthrough");
  const port = new URL(server.baseUrl).port;
  const banner = server.stderr();

  // The banner the README shows is the one the server prints (ids aside).
  const shownBanner = blocks.find((b) => b.lang === "");
  expect(shownBanner).toBeDefined();
  for (const line of (shownBanner as Block).text.split("\n").filter((l) => l.trim() !== "")) {
    const pattern = line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[\w-]*…/g, "\\S+");
    expect(banner).toMatch(new RegExp(`^${pattern}$`, "m"));
  }

  const learned: Record<string, () => string> = {
    KEY: () => bootstrapKey(banner) as string,
    ORG: () => bootstrapOrg(banner) as string,
    PROJECT: () => (last as { id: string }).id,
    JOB: () => (last as { jobId: string }).jobId,
  };
  let env: Record<string, string | undefined> = {
    ...process.env,
    PARLANCE_DATABASE_URL: undefined,
    PARLANCE_BASE_URL: undefined,
    PARLANCE_API_KEY: undefined,
  };
  let last: unknown = null;
  let output = "";
  let ran = 0;
  let compared = 0;

  for (const block of blocks) {
    if (block.lang === "json") {
      expect(output, `output before ${block.text}`).not.toBe("");
      last = JSON.parse(output);
      expectLike(last, JSON.parse(block.text));
      compared++;
      continue;
    }
    if (block.lang !== "sh") continue;
    for (const command of commands(block.text)) {
      if (/^export\s/.test(command) && command.includes("…")) {
        // `export PROJECT=5d0c…`: the reader pastes the id the previous command printed.
        if (output !== "") last = JSON.parse(output);
        for (const [, name = ""] of command.matchAll(/(\w+)=\S*…/g)) {
          const value = learned[name];
          if (!value) throw new Error(`the test does not know where ${name} comes from`);
          env[name] = value();
        }
        continue;
      }
      const line = command.replaceAll("localhost:8080", `127.0.0.1:${port}`);
      // An `export` without placeholders runs in the shell, which hands its variables on.
      const script = /^export\s/.test(line) ? `${line}\nenv -0` : line;
      const proc = Bun.spawn(["bash", "-c", script], { cwd: home, env, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      expect(code, `${line}\n${err}`).toBe(0);
      ran++;
      if (script !== line) {
        env = Object.fromEntries(
          out
            .split("\0")
            .filter((pair) => pair.includes("="))
            .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
        );
      } else output = out;
    }
  }
  expect(ran).toBeGreaterThanOrEqual(8);
  expect(compared).toBeGreaterThanOrEqual(6);

  // What the walkthrough promises, checked beyond the README's own samples.
  const auth = { headers: { authorization: `Bearer ${env.KEY}` } };
  const coverage = (await (
    await fetch(`${server.baseUrl}/api/v1/coverage?project_id=${env.PROJECT}`, auth)
  ).json()) as { data: { locales: { language: string; coveragePercent: number }[] } };
  const percent = Object.fromEntries(coverage.data.locales.map((l) => [l.language, l.coveragePercent]));
  expect(Object.keys(percent)).toEqual(["en", "fr"]);
  expect(percent.en).toBe(100);
  expect(percent.fr).toBeGreaterThan(0);
  expect(percent.fr).toBeLessThan(100);
  const nested = JSON.parse(readFileSync(join(home, "my-app.fr.json"), "utf8")) as Record<string, unknown>;
  expect(Object.values(nested).some((v) => v !== null && typeof v === "object")).toBe(true);
  // The API reference the walkthrough points to: every address it names answers, and the docs
  // page's files come from this server (test/process/docs-browser.test.ts renders it in Chromium).
  const section = readme.slice(
    readme.indexOf("\n## Walkthrough\n"),
    readme.indexOf("\n## ", readme.indexOf("\n## Walkthrough\n") + 1),
  );
  const addresses = [...section.matchAll(/<(http:\/\/localhost:8080\/[^>\s]*)>/g)].map((m) => m[1] as string);
  expect(addresses).toContain("http://localhost:8080/api/v1/docs");
  for (const address of addresses) {
    const res = await fetch(address.replace("http://localhost:8080", server.baseUrl));
    expect(res.status, address).toBe(200);
  }
  await expectDocsServed(server.baseUrl);
  // The user's folder holds the default store: no environment variable was needed.
  expect(existsSync(join(home, "data", "parlance.sqlite"))).toBe(true);
}, 60_000);
