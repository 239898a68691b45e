import { expect, test } from "bun:test";
import { join } from "node:path";
import { admin, tempDir } from "../support/process.ts";

test("`admin record set` writes one record as the operator, with its history entry", async () => {
  const env = { PARLANCE_DATABASE_URL: `sqlite:${join(tempDir(), "db.sqlite")}` };
  const org = await admin<{ id: string }>(["org", "create", "--name", "Acme"], env);
  const project = await admin<{ id: string }>(
    ["project", "create", "--org", org.id, "--name", "Web", "--base", "en", "--languages", "fr"],
    env,
  );
  const set = (args: string[]) =>
    admin(["record", "set", "--project", project.id, "--key", "home.title", ...args], env);
  expect(await set(["--language", "en", "--value", "Welcome {name}"])).toMatchObject({
    key: "home.title",
    language: "en",
    value: "Welcome {name}",
    status: "pending",
    version: 1,
    updatedBy: { kind: "operator" },
  });
  const fr = await set(["--language", "fr", "--value", "Bienvenue", "--status", "approved"]);
  expect(fr).toMatchObject({ version: 1, status: "approved", warnings: [{ code: "placeholder-missing" }] });
  const rows = await admin<unknown[]>(
    ["translations", "list", "--project", project.id, "--language", "fr"],
    env,
  );
  expect(rows).toEqual([
    { id: expect.any(String), key: "home.title", language: "fr", value: "Bienvenue", status: "approved" },
  ]);
}, 60_000);
