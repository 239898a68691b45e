/**
 * The client verbs of the `parlance` command (CONTRACT §9). A plain HTTP client of the public API:
 * nothing here reaches core use cases or storage, only their types for the shapes of answers.
 */
import type { ParsedArgs } from "../args.ts";
import { resolveSettings } from "./config.ts";
import { type ClientContext, type Output, say } from "./context.ts";
import { ClientError } from "./errors.ts";
import { createHttp, type HttpOptions } from "./http.ts";
import { CONNECTION_FLAGS, checkArgs, valueFlag } from "./options.ts";
import { PULL_FLAGS, pull } from "./pull.ts";
import { PUSH_FLAGS, push } from "./push.ts";
import { STATUS_FLAGS, status } from "./status.ts";
import { WAIT_FLAGS, wait } from "./wait.ts";
import { WHOAMI_FLAGS, whoami } from "./whoami.ts";

/** Said under every client verb's help. */
export const CLIENT_NOTES = `Server and key: --base-url URL and --api-key KEY, else PARLANCE_BASE_URL and PARLANCE_API_KEY,
else parlance.config.json {"baseUrl","apiKey"?,"projectId"?} in the working folder or above
(its projectId is the default for --project).
Exit code: 0 done, 1 refused by the server or the network (message on stderr), 2 usage mistake.`;

interface Verb {
  /** The options as the help shows them. */
  synopsis: string;
  summary: string;
  flags: readonly string[];
  needsProject: boolean;
  run(ctx: ClientContext, args: ParsedArgs): Promise<void>;
}

const VERBS: Record<string, Verb> = {
  pull: {
    synopsis: `--project ID --language LANG [--format json|csv|xliff|xml|yaml] [--nested]
            [--environment E] [--out FILE|DIR/|-]`,
    summary: `Downloads one language's file into the working folder under the server's file name
(my-app.fr.json); --out picks another place (- for stdout). --nested writes JSON nested by the
dots of its keys instead of the flat export (json only; see docs/formats.md).`,
    flags: PULL_FLAGS,
    needsProject: true,
    run: pull,
  },
  push: {
    synopsis: `--project ID --language LANG --file FILE|- [--dry-run] [--mode merge|replace]
            [--status draft|pending|needs_review|approved] [--no-wait] [--json]`,
    summary: `Uploads a JSON file (nested or flat) into one language and waits for the import job;
--dry-run previews, --no-wait prints the job id alone. The rows take --status, approved by
default (as the API's push); needs_review has them reviewed first. --mode merge (the default)
keeps the keys the file lacks; replace deletes them.`,
    flags: PUSH_FLAGS,
    needsProject: true,
    run: push,
  },
  status: {
    synopsis: "--project ID [--json]",
    summary: "Shows the project's coverage per language (--json: the coverage report).",
    flags: STATUS_FLAGS,
    needsProject: true,
    run: status,
  },
  wait: {
    synopsis: "--job ID [--json]",
    summary: `Waits for an import job (one push --no-wait printed) as push waits, with its outputs and
exit codes: 0 completed, 1 failed.`,
    flags: WAIT_FLAGS,
    needsProject: false,
    run: wait,
  },
  whoami: {
    synopsis: "[--json]",
    summary: "Shows the API key in use: its name, its organization and its scopes.",
    flags: WHOAMI_FLAGS,
    needsProject: false,
    run: whoami,
  },
};

/** Every flag a verb takes, connection flags included. */
export const clientVerbFlags = (name: string): readonly string[] => [
  ...CONNECTION_FLAGS,
  ...(VERBS[name]?.flags ?? []),
];

export const clientVerbHelp = (name: string): { synopsis: string; summary: string } | null =>
  VERBS[name] ?? null;

export const isClientVerb = (name: string | undefined): name is string =>
  name !== undefined && Object.hasOwn(VERBS, name);

export interface ClientIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: Output;
  stderr: Output;
  fetch?: HttpOptions["fetch"];
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Runs one verb; throws ClientError (with its exit code) on failure. */
export async function runClient(args: ParsedArgs, io: ClientIo): Promise<void> {
  const name = args.positionals[0] ?? "";
  const verb = VERBS[name];
  if (!verb) throw new ClientError(`unknown command ${JSON.stringify(name)}`, 2);
  checkArgs(args, name, verb.flags);
  const settings = resolveSettings(
    {
      flags: {
        // An empty value (`--project ""`, an unset shell variable) counts as not given.
        baseUrl: valueFlag(args, "base-url") || undefined,
        apiKey: valueFlag(args, "api-key") || undefined,
        project: verb.needsProject ? valueFlag(args, "project") || undefined : undefined,
      },
      env: io.env,
      cwd: io.cwd,
    },
    verb.needsProject,
  );
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = io.now ?? Date.now;
  const http = createHttp({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    fetch: io.fetch,
    sleep,
    now,
    notify: (message) => say(io.stderr, message),
  });
  const ctx = {
    http,
    projectId: settings.projectId ?? "",
    cwd: io.cwd,
    stdout: io.stdout,
    stderr: io.stderr,
  };
  await verb.run({ ...ctx, sleep, now }, args);
}
