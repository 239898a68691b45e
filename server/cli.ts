#!/usr/bin/env bun
/**
 * The `parlance` command: `serve` runs the server; `admin …` runs one operator command against
 * the same store; `pull`, `push`, `status` and `whoami` are a client of a running server over
 * HTTP. The only place (with server/config.ts) that reads process.env.
 */
import { isParlanceError } from "../core/index.ts";
import { ADMIN_USAGE, runAdmin } from "./cli/admin.ts";
import { parseArgs, UsageError } from "./cli/args.ts";
import { ClientError } from "./cli/client/errors.ts";
import { CLIENT_USAGE, isClientVerb, runClient } from "./cli/client/index.ts";
import { readConfig } from "./config.ts";
import { bunHost } from "./host-bun.ts";
import { stderrLogger } from "./log.ts";
import { openRuntime } from "./runtime.ts";
import { serve } from "./serve.ts";

const USAGE = `usage: parlance serve | parlance admin <command> | parlance pull|push|status|whoami … | parlance help

${ADMIN_USAGE}

${CLIENT_USAGE}`;

function fail(message: string): never {
  process.stderr.write(`parlance: ${message.split("\n")[0]}\n`);
  process.exit(message.includes("\n") ? 2 : 1);
}

/**
 * The client reports its own failures: the whole message (a server's `details`, a hint) may span
 * lines, and exitCode rather than exit() lets a pulled file piped to stdout drain first.
 */
async function client(args: ReturnType<typeof parseArgs>): Promise<void> {
  try {
    await runClient(args, {
      env: process.env,
      cwd: process.cwd(),
      stdout: process.stdout,
      stderr: process.stderr,
    });
  } catch (e) {
    if (!(e instanceof ClientError)) throw e;
    process.stderr.write(`parlance: ${e.message}\n`);
    process.exitCode = e.exitCode;
  }
}

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const command = args.positionals[0] ?? "serve";
  if (command === "help" || args.flags.has("help")) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // Before the server's configuration is read: a client needs none of it.
  if (isClientVerb(command)) return client(args);
  const config = readConfig(process.env);
  if (command === "serve") return serve(config, stderrLogger, bunHost);
  if (command !== "admin") fail(`unknown command ${JSON.stringify(command)}; try parlance help`);
  const runtime = await openRuntime(config, stderrLogger, bunHost);
  try {
    const result = await runAdmin(runtime.parlance, args);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await runtime.close();
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError || isParlanceError(e)) fail(e.message);
  fail(e instanceof Error ? e.message : String(e));
});
