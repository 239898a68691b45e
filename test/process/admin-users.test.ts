import { expect, test } from "bun:test";
import { join } from "node:path";
import { admin, runCli, startServerProcess, tempDir } from "../support/process.ts";

const tokenOf = (link: string) => link.slice(link.indexOf("#") + 1);

/** The workspace API as a browser on the server's own page calls it. */
function browser(baseUrl: string) {
  let cookie = "";
  return async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await fetch(`${baseUrl}/api/workspace${path}`, {
      method: init.method ?? "GET",
      headers: { origin: baseUrl, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    const set = res.headers.get("set-cookie");
    if (set?.startsWith("parlance_session=")) cookie = set.split(";")[0] as string;
    return res;
  };
}

test("admin user create, invite and reset-password print one-time links the workspace accepts", async () => {
  const dir = tempDir();
  const env = { PARLANCE_DATABASE_URL: `sqlite:${join(dir, "db.sqlite")}` };
  const org = await admin<{ id: string }>(["org", "create", "--name", "Acme"], env);
  const server = await startServerProcess({ ...env, PARLANCE_BOOTSTRAP: "0" });
  try {
    // Started with no user: the setup link is printed.
    expect(server.stderr()).toMatch(/\/setup#[0-9a-f]{64}/);
    const withBase = { ...env, PARLANCE_PUBLIC_URL: server.baseUrl };

    const first = await admin<{
      user: { email: string };
      memberships: { orgId: string; orgName: string; role: string; languages: null }[];
      link: string;
    }>(["user", "create", "--email", "olga@example.com", "--name", "Olga"], withBase);
    expect(first.memberships).toEqual([{ orgId: org.id, orgName: "Acme", role: "owner", languages: null }]);
    expect(first.link).toStartWith(`${server.baseUrl}/reset#`);
    const olga = browser(server.baseUrl);
    expect(
      (
        await olga("/password-resets/complete", {
          method: "POST",
          json: { token: tokenOf(first.link), password: "olga's long passphrase" },
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await olga("/session", {
          method: "POST",
          json: { email: "olga@example.com", password: "olga's long passphrase" },
        })
      ).status,
    ).toBe(200);

    // Once a user exists, create needs --org (and takes --role).
    const refused = await runCli(
      ["admin", "user", "create", "--email", "x@example.com", "--name", "X"],
      withBase,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--org");
    const dev = await admin<{ memberships: { role: string }[] }>(
      [
        "user",
        "create",
        "--email",
        "dev@example.com",
        "--name",
        "Dev",
        "--org",
        org.id,
        "--role",
        "developer",
      ],
      withBase,
    );
    expect(dev.memberships.map((m) => m.role)).toEqual(["developer"]);

    const invited = await admin<{ email: string; role: string; languages: string[]; link: string }>(
      [
        "user",
        "invite",
        "--org",
        org.id,
        "--email",
        "zoe@example.com",
        "--role",
        "translator",
        "--languages",
        "fr,de",
      ],
      withBase,
    );
    expect(invited).toMatchObject({ email: "zoe@example.com", role: "translator", languages: ["fr", "de"] });
    expect(invited.link).toStartWith(`${server.baseUrl}/invite#`);
    const zoe = browser(server.baseUrl);
    const accepted = await zoe("/invitations/accept", {
      method: "POST",
      json: { token: tokenOf(invited.link), name: "Zoé", password: "zoe's long passphrase" },
    });
    expect(accepted.status).toBe(201);
    const members = (await (await olga(`/orgs/${org.id}/members`)).json()) as { data: { email: string }[] };
    expect(members.data.map((m) => m.email)).toEqual([
      "dev@example.com",
      "olga@example.com",
      "zoe@example.com",
    ]);

    const reset = await admin<{ link: string }>(
      ["user", "reset-password", "--email", "ZOE@example.com"],
      withBase,
    );
    expect(
      (
        await zoe("/password-resets/complete", {
          method: "POST",
          json: { token: tokenOf(reset.link), password: "zoe's newer passphrase" },
        })
      ).status,
    ).toBe(204);
    expect((await zoe("/me")).status).toBe(401);

    const unknown = await runCli(
      ["admin", "user", "reset-password", "--email", "nobody@example.com"],
      withBase,
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.stdout).toBe("");
    const output = [first, dev, invited, reset].map((x) => JSON.stringify(x)).join("");
    expect(output).not.toContain("argon2");
  } finally {
    server.proc.kill("SIGTERM");
    await server.exited;
  }
}, 60_000);

test("a link printed without PARLANCE_PUBLIC_URL says what it assumed and what to set", async () => {
  const env = { PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}`, PORT: "18121" };
  const org = await admin<{ id: string }>(["org", "create", "--name", "Acme"], env);
  const invite = (email: string) => [
    ...["admin", "user", "invite", "--org", org.id],
    ...["--email", email, "--role", "translator"],
  ];
  const guessed = await runCli(invite("zoe@example.com"), env);
  expect(guessed.code).toBe(0);
  expect(JSON.parse(guessed.stdout).link).toStartWith("http://localhost:18121/invite#");
  expect(guessed.stderr).toContain(
    "the link assumes the workspace at http://localhost:18121, as PARLANCE_PUBLIC_URL is unset",
  );
  const named = await runCli(invite("ann@example.com"), {
    ...env,
    PARLANCE_PUBLIC_URL: "https://tms.example.com",
  });
  expect(named.code).toBe(0);
  expect(JSON.parse(named.stdout).link).toStartWith("https://tms.example.com/invite#");
  expect(named.stderr).not.toContain("assumes");
});
