import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { expectDocsServed } from "../support/docs.ts";
import { REPO, tempDir } from "../support/process.ts";
import { expectWorkspaceServed } from "../support/workspace-page.ts";

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
  const created = JSON.parse(await new Response(org.stdout).text()) as { id: string; name: string };
  expect(created).toEqual({ id: expect.any(String), name: "FromBinary" });
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
    await expectWorkspaceServed(`http://127.0.0.1:${port}`);
    // The client verbs too (CONTRACT §1): whoami against the server the binary itself runs.
    const key = /pl_[0-9a-f]{64}/.exec(err)?.[0] as string;
    const whoami = Bun.spawn([binary, "whoami"], {
      cwd: dir,
      env: { ...process.env, PARLANCE_BASE_URL: `http://127.0.0.1:${port}`, PARLANCE_API_KEY: key },
      stdout: "pipe",
    });
    expect(await new Response(whoami.stdout).text()).toContain("bootstrap");
    expect(await whoami.exited).toBe(0);
    // The first-start setup link and the people commands work from the binary as well.
    const base = `http://127.0.0.1:${port}`;
    const setup = /\/setup#([0-9a-f]{64})/.exec(err)?.[1];
    expect(setup).toMatch(/^[0-9a-f]{64}$/);
    const owner = await fetch(`${base}/api/workspace/setup`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/json" },
      body: JSON.stringify({
        token: setup,
        email: "owner@example.com",
        name: "Owner",
        password: "a long enough passphrase",
      }),
    });
    expect(owner.status).toBe(201);
    const invite = Bun.spawn(
      [
        binary,
        "admin",
        "user",
        "invite",
        "--org",
        created.id,
        "--email",
        "t@example.com",
        "--role",
        "translator",
      ],
      { cwd: dir, env: { ...env, PARLANCE_PUBLIC_URL: base }, stdout: "pipe" },
    );
    const invited = JSON.parse(await new Response(invite.stdout).text()) as { link: string };
    expect(await invite.exited).toBe(0);
    expect(invited.link).toMatch(new RegExp(`^${base}/invite#[0-9a-f]{64}$`));
    const reset = Bun.spawn([binary, "admin", "user", "reset-password", "--email", "owner@example.com"], {
      cwd: dir,
      env: { ...env, PARLANCE_PUBLIC_URL: base },
      stdout: "pipe",
    });
    const resetLink = JSON.parse(await new Response(reset.stdout).text()) as { link: string };
    expect(resetLink.link).toMatch(new RegExp(`^${base}/reset#[0-9a-f]{64}$`));
    expect(await reset.exited).toBe(0);
    const made = Bun.spawn(
      [
        binary,
        "admin",
        "user",
        "create",
        "--org",
        created.id,
        "--email",
        "dev@example.com",
        "--name",
        "Dev",
        "--role",
        "developer",
      ],
      { cwd: dir, env: { ...env, PARLANCE_PUBLIC_URL: base }, stdout: "pipe" },
    );
    const dev = JSON.parse(await new Response(made.stdout).text()) as { link: string };
    expect(await made.exited).toBe(0);
    // Each printed link works against the binary's own server, as the workspace pages use them.
    const post = (path: string, json: unknown) =>
      fetch(`${base}/api/workspace${path}`, {
        method: "POST",
        headers: { origin: base, "content-type": "application/json" },
        body: JSON.stringify(json),
      });
    const tokenOf = (link: string) => link.slice(link.indexOf("#") + 1);
    expect(
      (
        await post("/invitations/accept", {
          token: tokenOf(invited.link),
          name: "T",
          password: "translator's passphrase",
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await post("/password-resets/complete", {
          token: tokenOf(resetLink.link),
          password: "owner's new passphrase",
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await post("/password-resets/complete", {
          token: tokenOf(dev.link),
          password: "developer's passphrase",
        })
      ).status,
    ).toBe(204);
    for (const [email, password] of [
      ["owner@example.com", "owner's new passphrase"],
      ["t@example.com", "translator's passphrase"],
      ["dev@example.com", "developer's passphrase"],
    ])
      expect((await post("/session", { email, password })).status).toBe(200);
  } finally {
    server.kill("SIGTERM");
    await server.exited;
    rmSync(dir, { recursive: true, force: true }); // the binary is over 100 MB
  }
}, 120_000); // building a 100 MB binary and three more of its commands take about a minute on a loaded machine
