#!/usr/bin/env bun
/**
 * The `parlance` command: `serve` runs the server; `admin …` runs one operator command against
 * the same store; `pull`, `push`, `status` and `whoami` are a client of a running server over
 * HTTP. The only place (with server/config.ts) that reads process.env.
 *
 * A bare `parlance` prints the usage (on stderr, exit 2) instead of starting a server: `serve` is
 * always named (`bun run start` does), so a mistyped or incomplete command never binds a port.
 */
import { isParlanceError } from "../core/index.ts";
import { ADMIN_COMMANDS, findAdminCommand } from "./cli/admin.ts";
import { checkFlags, type ParsedArgs, parseArgs, UsageError } from "./cli/args.ts";
import { ClientError } from "./cli/client/errors.ts";
import { clientVerbFlags, isClientVerb, runClient } from "./cli/client/index.ts";
import { commandAsInvoked } from "./cli/invocation.ts";
import { SERVE_FLAGS, withServeFlags } from "./cli/serve-flags.ts";
import { ADMIN_USAGE, helpFor, TOP_USAGE } from "./cli/usage.ts";
import { type Config, DEFAULT_DATABASE_URL, readConfig } from "./config.ts";
import { bunHost } from "./host-bun.ts";
import { stderrLogger } from "./log.ts";
import { describeStore, isProcessLocal } from "./open-store.ts";
import { openRuntime } from "./runtime.ts";
import { serve } from "./serve.ts";
import { VERSION } from "./version.ts";

const say = (message: string) => process.stderr.write(`parlance: ${message}\n`);

/**
 * The client reports its own failures: the whole message (a server's `details`, a hint) may span
 * lines, and exitCode rather than exit() lets a pulled file piped to stdout drain first.
 */
async function client(args: ParsedArgs): Promise<void> {
  try {
    await runClient(args, {
      env: process.env,
      cwd: process.cwd(),
      stdout: process.stdout,
      stderr: process.stderr,
    });
  } catch (e) {
    if (!(e instanceof ClientError)) throw e;
    if (e.showUsage) throw new UsageError(e.message);
    say(e.message);
    process.exitCode = e.exitCode;
  }
}

/** Where the store's URL came from, in the words an error message needs. */
function storeOrigin(config: Config): string {
  if (!config.databaseUrlFromEnv)
    return `PARLANCE_DATABASE_URL is unset; the default ${DEFAULT_DATABASE_URL} is relative to the working folder ${process.cwd()}`;
  // A SQLite URL holds no secret; a Postgres one may.
  return config.databaseUrl.startsWith("sqlite:")
    ? `PARLANCE_DATABASE_URL=${config.databaseUrl}`
    : "PARLANCE_DATABASE_URL";
}

/**
 * One operator command. The store it used is always said on stderr: on its own line after a
 * success, or inside the one-line error message, so "not found" can never hide a wrong store.
 */
async function admin(args: ParsedArgs): Promise<void> {
  const words = args.positionals.slice(1);
  if (words.length === 0) throw new UsageError("admin needs a command", ADMIN_USAGE);
  const command = findAdminCommand(words);
  if (!command) {
    const actions = ADMIN_COMMANDS.filter((c) => c.name.startsWith(`${words[0]} `)).map((c) => c.name);
    if (words.length === 1 && actions.length > 0)
      throw new UsageError(`admin ${words[0]} needs an action: ${actions.join(", ")}`, ADMIN_USAGE);
    throw new UsageError(`unknown admin command ${JSON.stringify(words.join(" "))}`, ADMIN_USAGE);
  }
  checkFlags(args, `admin ${command.name}`, command.flags, 3);
  const call = command.prepare(args);
  const config = readConfig(process.env);
  if (isProcessLocal(config.databaseUrl))
    throw new Error(
      `admin cannot work on an in-memory store (PARLANCE_DATABASE_URL=${config.databaseUrl}): it lives inside the server's process, so this command would get an empty store of its own that vanishes when it exits. Run the server on sqlite:<path> or postgres://… and give the command the same URL.`,
    );
  const store = describeStore(config.databaseUrl);
  /** Names the store in a failure, unless the message already does (a missing database). */
  const naming = (e: unknown): unknown => {
    if (e instanceof Error && !e.message.includes(store.slice(store.indexOf(":") + 1)))
      e.message = `${e.message} (store ${store})`;
    return e;
  };
  const runtime = await openRuntime(config, stderrLogger, bunHost, undefined, {
    mustExist: !command.createsStore,
    origin: storeOrigin(config),
    // A command writes little and exits: SQLite's own checkpoints and its own connection are enough.
    walCheckpointer: undefined,
    importThread: undefined,
  }).catch((e: unknown) => {
    throw naming(e);
  });
  try {
    const result = await call(runtime.parlance.admin, {
      publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    say(`store ${store}`);
    // A link that only guesses where people open the workspace says so (PORT may not be the server's).
    if (!config.publicUrl && typeof (result as { link?: unknown } | null)?.link === "string")
      say(
        `the link assumes the workspace at http://localhost:${config.port}, as PARLANCE_PUBLIC_URL is unset; set it to the address people open (as the server has it)`,
      );
  } catch (e) {
    throw naming(e);
  } finally {
    await runtime.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  if (args.flags.has("version")) {
    process.stdout.write(`parlance ${VERSION}\n`);
    return;
  }
  const [command, ...rest] = args.positionals;
  if (command === "help" || args.flags.has("help")) {
    process.stdout.write(`${helpFor(command === "help" ? rest : args.positionals)}\n`);
    return;
  }
  if (command === undefined)
    throw new UsageError("no command given (parlance serve starts the server)", TOP_USAGE);
  // Whatever goes wrong in the command line below is shown with that command's usage.
  try {
    if (isClientVerb(command)) {
      checkFlags(args, command, clientVerbFlags(command), 1);
      return await client(args);
    }
    if (command === "admin") return await admin(args);
    if (command !== "serve") throw new UsageError(`unknown command ${JSON.stringify(command)}`, TOP_USAGE);
    checkFlags(args, "serve", SERVE_FLAGS, 1);
    const config = withServeFlags(readConfig(process.env), args);
    const invokedAs = commandAsInvoked({
      argv0: process.argv0,
      main: Bun.main,
      cliPath: import.meta.path,
      script: process.env.npm_lifecycle_event,
      cwd: process.cwd(),
    });
    return await serve(config, stderrLogger, bunHost, invokedAs);
  } catch (e) {
    if (e instanceof UsageError && e.usage === undefined) e.usage = helpFor(usageWords(args));
    throw e;
  }
}

/** The words that name the command being run, for its usage (`admin org create`, `pull`). */
function usageWords(args: ParsedArgs): string[] {
  const [command] = args.positionals;
  if (command === "admin") return args.positionals.slice(0, 3);
  return command === undefined ? [] : [command];
}

// A reader that goes away early (`parlance pull --out - | head`) is one line, not a stack trace:
// the output was cut short, so the command did not do what was asked.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  say(
    e.code === "EPIPE"
      ? "stdout was closed before all the output was written (EPIPE)"
      : `cannot write to stdout: ${e.message}`,
  );
  process.exit(1);
});

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) {
    say(e.message);
    if (e.usage) process.stderr.write(`\n${e.usage}\n`);
    process.exit(2);
  }
  // One line: operator commands promise a one-line message (CONTRACT §2).
  const message = isParlanceError(e) || e instanceof Error ? e.message : String(e);
  say(message.split("\n")[0] ?? "");
  process.exit(1);
});
