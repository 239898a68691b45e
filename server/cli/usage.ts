/**
 * The help texts of the `parlance` command. Every command and sub-command has one (`--help`, `-h`,
 * `parlance help …`); the command lists show one line per command.
 */
import { VERSION } from "../version.ts";
import { ADMIN_COMMANDS, type AdminCommand, findAdminCommand } from "./admin.ts";
import { UsageError } from "./args.ts";
import { CLIENT_NOTES, clientVerbHelp, isClientVerb } from "./client/index.ts";

const COMMANDS: [string, string][] = [
  ["serve", "Serves the HTTP API (/api/v1) on the store PARLANCE_DATABASE_URL names."],
  ["admin", "Operator commands on that store: organizations, projects, keys, quotas."],
  ["pull", "Downloads a language's file from a running server (--nested: nested JSON)."],
  ["push", "Uploads a JSON file to a running server and waits for the import."],
  ["status", "Shows a project's coverage per language."],
  ["wait", "Waits for an import job that push --no-wait started."],
  ["whoami", "Shows the API key in use: its name, organization and scopes."],
  ["help", "Shows this text, or a command's: parlance help admin."],
];

export const TOP_USAGE = `parlance ${VERSION}: self-hostable translation management

usage: parlance <command> [options]

${COMMANDS.map(([name, summary]) => `  ${name.padEnd(8)}${summary}`).join("\n")}

Every command and sub-command takes --help (-h) and --version.`;

const STORE_NOTE = `The store is the one PARLANCE_DATABASE_URL names (default sqlite:./data/parlance.sqlite,
relative to the working folder); the command says on stderr which one it used.`;

export const ADMIN_USAGE = `usage: parlance admin <command> [options]

${ADMIN_COMMANDS.map((c) => `  ${c.name} ${c.synopsis}`.trimEnd()).join("\n")}

Operator commands work on the server's store directly and print one JSON document on stdout.
${STORE_NOTE}
Only "org create" may start a new database. memory: cannot be administered: it lives inside the
server's process. "parlance admin <command> --help" describes one command.`;

export const SERVE_USAGE = `usage: parlance serve [--port N] [--host ADDR]

Serves /api/v1, the workspace (/ and /api/workspace) and /healthz. The store is the one
PARLANCE_DATABASE_URL names (default sqlite:./data/parlance.sqlite, created if missing). On a
store without API keys it creates the first one and prints it once; while the store has no user
it prints a one-time setup link for the first owner.

  --port N      listening port; default PORT, else 8080 (0 picks a free port)
  --host ADDR   listening address; default PARLANCE_HOST, else 0.0.0.0

Flags win over the variables. The other settings (PARLANCE_ENV, PARLANCE_BOOTSTRAP, …) are
environment variables; see the README.`;

/** `usage: parlance <name> <synopsis>`, continuation lines of the synopsis aligned under it. */
function usageLine(name: string, synopsis: string): string {
  const head = `usage: parlance ${name} `;
  const [first = "", ...rest] = synopsis.split("\n").map((l) => l.trim());
  return [`${head}${first}`.trimEnd(), ...rest.map((l) => `${" ".repeat(head.length)}${l}`)].join("\n");
}

function adminCommandUsage(c: AdminCommand): string {
  return `${usageLine(`admin ${c.name}`, c.synopsis)}\n\n${c.summary}\n${STORE_NOTE}`;
}

function clientUsage(verb: string): string {
  const help = clientVerbHelp(verb);
  if (!help) throw new Error(`no help for ${verb}`);
  return `${usageLine(verb, help.synopsis)}\n\n${help.summary}\n\n${CLIENT_NOTES}`;
}

/**
 * The help for the command the words name (`[]`, `["serve"]`, `["admin", "org", "create"]`).
 * Throws a UsageError for words that name no command.
 */
export function helpFor(words: readonly string[]): string {
  const [command, ...rest] = words;
  if (command === undefined) return TOP_USAGE;
  if (command === "serve" && rest.length === 0) return SERVE_USAGE;
  if (command === "help") return TOP_USAGE;
  if (isClientVerb(command) && rest.length === 0) return clientUsage(command);
  if (command === "admin") {
    const found = findAdminCommand(rest);
    if (found && rest.length <= 2) return adminCommandUsage(found);
    // `admin` or `admin org`: the list, where the resource's commands can be seen.
    if (
      rest.length === 0 ||
      (rest.length === 1 && ADMIN_COMMANDS.some((c) => c.name.startsWith(`${rest[0]} `)))
    )
      return ADMIN_USAGE;
    throw new UsageError(`unknown admin command ${JSON.stringify(rest.join(" "))}`, ADMIN_USAGE);
  }
  throw new UsageError(`unknown command ${JSON.stringify(words.join(" "))}`, TOP_USAGE);
}
