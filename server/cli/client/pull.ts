/** `parlance pull`: GET /api/v1/pull, saved under the server's file name, another name, or to stdout. */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { unflatten } from "../../../core/unflatten.ts";
import type { ParsedArgs } from "../args.ts";
import { ApiError } from "./api-error.ts";
import { bodyBytes } from "./body-bytes.ts";
import { attachmentFileName } from "./content-disposition.ts";
import { type ClientContext, say } from "./context.ts";
import { ClientError, commandLineError } from "./errors.ts";
import { requiredValue, switchFlag, valueFlag } from "./options.ts";

export const PULL_FLAGS = ["project", "language", "format", "environment", "out", "nested"];

/** Used only when the server names no usable file; the extensions are those of CONTRACT §7. */
const EXTENSIONS: Record<string, string> = {
  json: "json",
  csv: "csv",
  xliff: "xlf",
  xml: "xml",
  yaml: "yaml",
};

/** The media type Parlance sends each format as (core/formats): anything else is not its export. */
const MEDIA_TYPES: Record<string, string> = {
  json: "application/json",
  csv: "text/csv",
  xliff: "application/xliff+xml",
  xml: "application/xml",
  yaml: "application/yaml",
};

export async function pull(ctx: ClientContext, args: ParsedArgs): Promise<void> {
  const language = requiredValue(args, "language");
  const format = valueFlag(args, "format");
  const out = valueFlag(args, "out");
  const nested = switchFlag(args, "nested");
  if (nested && format !== undefined && format !== "json")
    throw commandLineError(`--nested applies to JSON only (got --format ${format})`);
  const res = await ctx.http
    .request("/api/v1/pull", {
      // format and environment go as given: the server is the one that knows which are valid.
      query: { project_id: ctx.projectId, language, format, environment: valueFlag(args, "environment") },
    })
    .catch((e: unknown) => {
      // The API's 404 for a language of the project that holds no row yet: say why.
      if (e instanceof ApiError && e.status === 404 && e.message.startsWith("No translations found"))
        throw new ApiError(
          `${e.message}: ${language} has no translations yet (a language just added has none until a push or an edit)`,
          404,
        );
      throw e;
    });
  // A server that is not Parlance (a proxy's page, a wrong base URL) must not become the file.
  const expected = MEDIA_TYPES[format ?? "json"];
  const got = res.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (expected !== undefined && got !== expected)
    throw new ClientError(
      `the answer is ${got === "" ? "of no media type" : got}, not a ${format ?? "json"} export (${expected}): is the base URL (--base-url, PARLANCE_BASE_URL) Parlance's address? Nothing was written`,
    );
  // Bytes, not text: the file is saved exactly as exported (a CSV's BOM included).
  const exported = await bodyBytes(res);
  const bytes = nested ? nestedJson(exported) : exported;
  // /dev/stdout is standard output too, written as such: opened by name it fails when the output
  // is a socket (ENXIO), as some process runners make it.
  if (out === "-" || out === "/dev/stdout") {
    ctx.stdout.write(bytes);
    return;
  }
  const serverName =
    attachmentFileName(res.headers.get("content-disposition")) ??
    `${ctx.projectId}.${language}.${EXTENSIONS[format ?? "json"] ?? format}`;
  const target =
    out === undefined ? join(ctx.cwd, serverName) : outPath(resolve(ctx.cwd, out), out, serverName);
  writeWhole(target, bytes);
  const shown = relative(ctx.cwd, target);
  say(ctx.stderr, `wrote ${shown.startsWith("..") ? target : shown} (${bytes.length} bytes)`);
}

/**
 * The server's flat JSON nested on the client (`/api/v1/pull` stays flat): core's unflatten, laid
 * out like the flat export (2-space indent, final newline).
 */
function nestedJson(flatBytes: Uint8Array): Uint8Array {
  let flat: unknown;
  try {
    flat = JSON.parse(new TextDecoder().decode(flatBytes));
  } catch {
    throw new ClientError("the server's JSON export could not be read, so it cannot be nested");
  }
  if (flat === null || typeof flat !== "object" || Array.isArray(flat))
    throw new ClientError("the server's JSON export is not an object, so it cannot be nested");
  const entries = Object.entries(flat).map(([k, v]) => [k, String(v)] as const);
  return new TextEncoder().encode(`${JSON.stringify(unflatten(entries), null, 2)}\n`);
}

/** Where a chain of symbolic links ends (the path itself when it is none), existing or not. */
function linkTarget(path: string, hops = 0): string {
  let link: string;
  try {
    if (hops >= 40 || !lstatSync(path).isSymbolicLink()) return path;
    link = readlinkSync(path);
  } catch {
    return path;
  }
  return linkTarget(resolve(dirname(path), link), hops + 1);
}

/** `--out locales/` (or an existing folder) keeps the server's file name inside that folder. */
function outPath(resolved: string, given: string, serverName: string): string {
  const isFolder = /[/\\]$/.test(given) || (existsSync(resolved) && statSync(resolved).isDirectory());
  return isFolder ? join(resolved, serverName) : resolved;
}

/**
 * Written beside the target and renamed over it, so an interrupted pull leaves the previous file
 * intact rather than half a file that a build would pick up. Missing folders of --out are created.
 * A symbolic link is written through (its file replaced, the link kept), and what is not a file
 * (`/dev/stdout`, a pipe) is written to as it is: a rename would replace it with a file.
 */
function writeWhole(given: string, bytes: Uint8Array): void {
  let found: Stats | null = null;
  try {
    found = statSync(given);
  } catch {
    // absent (or a link to nothing): a file is made
  }
  if (found && !found.isFile()) {
    // Through the path as given: the system follows `/dev/stdout` to whatever it is now.
    try {
      writeFileSync(given, bytes);
      return;
    } catch (e) {
      throw new ClientError(`cannot write ${given}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const target = linkTarget(given);
  const temp = `${target}.${process.pid}.part`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(temp, bytes);
    renameSync(temp, target);
  } catch (e) {
    rmSync(temp, { force: true });
    throw new ClientError(`cannot write ${target}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
