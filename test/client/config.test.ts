import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findConfigFile, normalizeBaseUrl, resolveSettings } from "../../server/cli/client/config.ts";
import { ClientError } from "../../server/cli/client/errors.ts";
import { tempDir } from "../support/process.ts";

function tree(config?: unknown) {
  const root = tempDir("parlance-config-");
  const nested = join(root, "a", "b", "c");
  mkdirSync(nested, { recursive: true });
  if (config !== undefined)
    writeFileSync(
      join(root, "parlance.config.json"),
      typeof config === "string" ? config : JSON.stringify(config),
    );
  return { root, nested };
}

const fromFile = { baseUrl: "http://file.test", apiKey: "pl_file", projectId: "p-file" };

describe("settings (CONTRACT §9)", () => {
  test("the config file is found from a nested working folder upward", () => {
    const { root, nested } = tree(fromFile);
    expect(findConfigFile(nested)).toBe(join(root, "parlance.config.json"));
    expect(resolveSettings({ flags: {}, env: {}, cwd: nested }, true)).toEqual({
      baseUrl: "http://file.test",
      apiKey: "pl_file",
      projectId: "p-file",
    });
  });

  test("flags beat environment variables, which beat the file, one setting at a time", () => {
    const { nested } = tree(fromFile);
    const env = { PARLANCE_BASE_URL: "http://env.test", PARLANCE_API_KEY: "pl_env" };
    expect(resolveSettings({ flags: {}, env, cwd: nested }, true)).toEqual({
      baseUrl: "http://env.test",
      apiKey: "pl_env",
      projectId: "p-file",
    });
    expect(
      resolveSettings(
        {
          flags: { baseUrl: "http://flag.test", project: "p-flag" },
          env: { PARLANCE_API_KEY: "" },
          cwd: nested,
        },
        true,
      ),
    ).toEqual({ baseUrl: "http://flag.test", apiKey: "pl_file", projectId: "p-flag" });
  });

  test("a file is not read when flags and variables give everything", () => {
    const { nested } = tree("{ not json");
    const flags = { baseUrl: "http://flag.test", apiKey: "pl_flag", project: "p" };
    expect(resolveSettings({ flags, env: {}, cwd: nested }, true).apiKey).toBe("pl_flag");
    expect(() => resolveSettings({ flags: {}, env: {}, cwd: nested }, true)).toThrow(/not valid JSON/);
  });

  test("missing settings are usage errors (exit 2) that say where to put them", () => {
    const { nested } = tree();
    const err = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e as ClientError;
      }
      throw new Error("did not throw");
    };
    const noUrl = err(() => resolveSettings({ flags: {}, env: {}, cwd: nested }, false));
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.message).toContain("PARLANCE_BASE_URL");
    expect(
      err(() => resolveSettings({ flags: { baseUrl: "http://x.test" }, env: {}, cwd: nested }, false))
        .message,
    ).toContain("PARLANCE_API_KEY");
    expect(
      err(() =>
        resolveSettings({ flags: { baseUrl: "http://x.test", apiKey: "k" }, env: {}, cwd: nested }, true),
      ).message,
    ).toContain("--project is required");
    const { nested: bad } = tree({ baseUrl: 42 });
    expect(err(() => resolveSettings({ flags: {}, env: {}, cwd: bad }, false)).message).toContain(
      '"baseUrl"',
    );
  });

  test("base URLs: trailing slashes and a pasted /api/v1 are trimmed; other schemes refused", () => {
    expect(normalizeBaseUrl("http://h:8080/", "x")).toBe("http://h:8080");
    expect(normalizeBaseUrl("https://h/tms/api/v1/", "x")).toBe("https://h/tms");
    expect(() => normalizeBaseUrl("ftp://h", "x")).toThrow(ClientError);
    expect(() => normalizeBaseUrl("localhost:8080", "x")).toThrow(/http/);
  });
});
