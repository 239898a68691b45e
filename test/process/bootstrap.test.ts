import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bootstrapKey, bootstrapOrg, startServerProcess, tempDir } from "../support/process.ts";

test("first start on a fresh SQLite file creates the folder, prints the bootstrap key once, and serves it", async () => {
  const dir = tempDir();
  const env = { PARLANCE_DATABASE_URL: `sqlite:${join(dir, "nested", "db.sqlite")}` };
  const first = await startServerProcess(env);
  try {
    const key = bootstrapKey(first.stderr());
    expect(key).toMatch(/^pl_[0-9a-f]{64}$/);
    expect(bootstrapOrg(first.stderr())).not.toBeNull();
    expect(existsSync(join(dir, "nested", "db.sqlite"))).toBe(true);
    const res = await fetch(`${first.baseUrl}/api/v1/test`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: { name: string; organization: { name: string }; scopes: string[] };
    };
    expect(body.data.name).toBe("bootstrap");
    expect(body.data.organization.name).toBe("Default");
    expect(body.data.scopes.toSorted()).toEqual([
      "admin",
      "export:read",
      "translations:read",
      "translations:write",
    ]);
    expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
  } finally {
    first.proc.kill("SIGTERM");
    await first.exited;
  }
  const second = await startServerProcess(env);
  try {
    expect(bootstrapKey(second.stderr())).toBeNull();
  } finally {
    second.proc.kill("SIGTERM");
    await second.exited;
  }
});

test("PARLANCE_BOOTSTRAP=0 creates no key", async () => {
  const dir = tempDir();
  const server = await startServerProcess({
    PARLANCE_DATABASE_URL: `sqlite:${join(dir, "db.sqlite")}`,
    PARLANCE_BOOTSTRAP: "0",
  });
  try {
    expect(bootstrapKey(server.stderr())).toBeNull();
  } finally {
    server.proc.kill("SIGTERM");
    await server.exited;
  }
});

test("behind a proxy without PARLANCE_PUBLIC_URL, the start says to set it; with it, nothing", async () => {
  const behind = await startServerProcess({
    PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}`,
    PARLANCE_TRUST_PROXY: "1",
  });
  try {
    const stderr = behind.stderr();
    expect(stderr).toContain(
      "Behind a reverse proxy, or reached at another address? Set PARLANCE_PUBLIC_URL",
    );
    const warning = stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: string; message: string; hint?: string })
      .find((entry) => entry.level === "warn");
    expect(warning?.message).toBe("PARLANCE_TRUST_PROXY is set but PARLANCE_PUBLIC_URL is not");
    expect(warning?.hint).toContain("docs/operations.md");
  } finally {
    behind.proc.kill("SIGTERM");
    await behind.exited;
  }
  const named = await startServerProcess({
    PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}`,
    PARLANCE_TRUST_PROXY: "1",
    PARLANCE_PUBLIC_URL: "https://tms.example.com",
  });
  try {
    expect(named.stderr()).toContain("https://tms.example.com/setup#");
    expect(named.stderr()).not.toContain("PARLANCE_PUBLIC_URL");
  } finally {
    named.proc.kill("SIGTERM");
    await named.exited;
  }
});

test("on a store in memory, the first start's banner does not send you to operator commands", async () => {
  const server = await startServerProcess({ PARLANCE_DATABASE_URL: "memory:" });
  try {
    const stderr = server.stderr();
    expect(bootstrapKey(stderr)).toMatch(/^pl_[0-9a-f]{64}$/);
    expect(stderr).toContain("The store lives in this process: operator commands cannot reach it.");
    expect(stderr).not.toContain("admin project create");
  } finally {
    server.proc.kill("SIGTERM");
    await server.exited;
  }
});
