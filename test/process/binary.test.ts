import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { expectDocsServed } from "../support/docs.ts";
import { REPO, tempDir } from "../support/process.ts";

/**
 * `bun run build` writes one self-contained executable accepting the same commands; its
 * --version and its first-start banner work without the repository.
 */
test("the single binary serves the API and runs operator commands on its own", async () => {
  const dir = tempDir();
  const binary = join(dir, "parlance");
  const build = Bun.spawn(["bun", "build", "--compile", "server/cli.ts", "--outfile", binary], {
    cwd: REPO,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(await build.exited).toBe(0);

  // Run from an unrelated folder: nothing may be read from the repository at run time.
  const env = { ...process.env, PARLANCE_DATABASE_URL: `sqlite:${join(dir, "db.sqlite")}` };
  const org = Bun.spawn([binary, "admin", "org", "create", "--name", "FromBinary"], {
    cwd: dir,
    env,
    stdout: "pipe",
  });
  expect(JSON.parse(await new Response(org.stdout).text())).toEqual({
    id: expect.any(String),
    name: "FromBinary",
  });
  expect(await org.exited).toBe(0);

  // The version is compiled in: no package.json lies beside the binary.
  const version = Bun.spawn([binary, "--version"], { cwd: dir, stdout: "pipe" });
  const pkg = (await Bun.file(join(REPO, "package.json")).json()) as { version: string };
  expect(await new Response(version.stdout).text()).toBe(`parlance ${pkg.version}\n`);

  // Started as `./parlance`, as a user beside the binary would.
  const server = Bun.spawn(["./parlance", "serve"], {
    cwd: dir,
    env: { ...env, PORT: "0", PARLANCE_HOST: "127.0.0.1" },
    stdout: "ignore",
    stderr: "pipe",
  });
  try {
    let err = "";
    const decoder = new TextDecoder();
    let port = 0;
    for await (const chunk of server.stderr) {
      err += decoder.decode(chunk);
      const m = /"message":"listening".*?"port":(\d+)/.exec(err);
      if (m) {
        port = Number(m[1]);
        break;
      }
    }
    expect(err).toMatch(/pl_[0-9a-f]{64}/);
    // The banner's hint works where the user is: `./parlance admin …`, not `bun run parlance`.
    expect(err).toContain("  ./parlance admin project create --org ");
    expect(err).not.toContain("bun run parlance");
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const doc = (await (await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`)).json()) as {
      paths: object;
    };
    expect(Object.keys(doc.paths)).toContain("/api/v1/push");
    // The docs page and the viewer's files are inside the binary: the folder holds nothing else.
    await expectDocsServed(`http://127.0.0.1:${port}`);
    // The client verbs too (CONTRACT §1): whoami against the server the binary itself runs.
    const key = /pl_[0-9a-f]{64}/.exec(err)?.[0] as string;
    const whoami = Bun.spawn([binary, "whoami"], {
      cwd: dir,
      env: { ...process.env, PARLANCE_BASE_URL: `http://127.0.0.1:${port}`, PARLANCE_API_KEY: key },
      stdout: "pipe",
    });
    expect(await new Response(whoami.stdout).text()).toContain("bootstrap");
    expect(await whoami.exited).toBe(0);
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    rmSync(dir, { recursive: true, force: true }); // the binary is over 100 MB
  }
}, 60_000);
