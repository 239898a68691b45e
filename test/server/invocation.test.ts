import { expect, test } from "bun:test";
import { commandAsInvoked } from "../../server/cli/invocation.ts";

const from = (over: Partial<Parameters<typeof commandAsInvoked>[0]>) =>
  commandAsInvoked({
    argv0: "bun",
    main: "/repo/server/cli.ts",
    cliPath: "/repo/server/cli.ts",
    script: undefined,
    cwd: "/repo",
    ...over,
  });

test("the banner's command is spelled the way the process was started", () => {
  expect(from({})).toBe("bun server/cli.ts");
  expect(from({ script: "start" })).toBe("bun run parlance");
  expect(from({ main: "/$bunfs/root/parlance", argv0: "./parlance" })).toBe("./parlance");
  expect(from({ cwd: "/elsewhere" })).toBe("bun /repo/server/cli.ts");
  // Installed as a package: its bin, not a path into node_modules.
  const installed = "/app/node_modules/parlance-tms/dist/lib/cli.js";
  expect(from({ main: installed, cliPath: installed, cwd: "/app" })).toBe("bunx -p parlance-tms parlance");
});
