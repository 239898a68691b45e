/** `parlance push`: POST /api/v1/push with the file's text as `content`, then (by default) waits for the job. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { JobView, PushAccepted, PushPreview } from "../../../core/index.ts";
import type { ParsedArgs } from "../args.ts";
import { ApiError } from "./api-error.ts";
import type { ClientContext } from "./context.ts";
import { ClientError } from "./errors.ts";
import { waitForJob } from "./job-wait.ts";
import { requiredValue, switchFlag, valueFlag } from "./options.ts";

export const PUSH_FLAGS = ["project", "language", "file", "dry-run", "mode", "status", "no-wait", "json"];

const PUSH_LIMITS =
  "a push holds at most 50,000 keys after flattening and 12 MiB of UTF-8 content; split the file by key prefix";

export async function push(ctx: ClientContext, args: ParsedArgs): Promise<void> {
  const language = requiredValue(args, "language");
  const file = requiredValue(args, "file");
  const dryRun = switchFlag(args, "dry-run");
  const noWait = switchFlag(args, "no-wait");
  const asJson = switchFlag(args, "json");
  // mode and status go as given (unset ones are left to the server's defaults): it validates them.
  const body = {
    projectId: ctx.projectId,
    language,
    content: await readContent(file, ctx.cwd),
    ...(dryRun ? { dryRun: true } : {}),
    importMode: valueFlag(args, "mode"),
    status: valueFlag(args, "status"),
  };
  const print = (text: string) => ctx.stdout.write(`${text}\n`);
  const send = <T>() =>
    ctx.http.json<T>("/api/v1/push", { method: "POST", json: body }).catch((e: unknown) => {
      // The API's 413 message is fixed and names no figure: the limits say what to change.
      // On the first line, which is the one the command prints (development details follow it).
      if (e instanceof ApiError && e.status === 413 && e.message.includes("(HTTP 413)"))
        throw new ApiError(e.message.replace(/^(.*?)(\n|$)/, `$1: ${PUSH_LIMITS}$2`), 413);
      throw e;
    });

  if (dryRun) {
    const preview = await send<PushPreview>();
    print(asJson ? JSON.stringify(preview, null, 2) : describePreview(preview));
    return;
  }
  const { jobId } = await send<PushAccepted>();
  if (noWait) {
    print(jobId);
    return;
  }
  const job = await waitForJob(ctx, jobId);
  // A failed job's object is still the documented --json output; its message goes to stderr.
  if (asJson) print(JSON.stringify(job, null, 2));
  if (job.status !== "completed")
    throw new ClientError(`job ${jobId} ${job.status}: ${job.errorMessage ?? "the server gave no reason"}`);
  if (!asJson) print(describeSummary(job, language));
}

/** `-` reads stdin. The file must be UTF-8: decoding anything else would push mangled strings. */
async function readContent(file: string, cwd: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = file === "-" ? await readStdin() : readFileSync(resolve(cwd, file));
  } catch (e) {
    throw new ClientError(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    // ignoreBOM keeps a leading BOM in the text; the server drops it, as it would from any client.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ClientError(`${file} is not UTF-8 text`);
  }
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Uint8Array);
  return Buffer.concat(chunks);
}

function describePreview(p: PushPreview): string {
  const rows: [string, number | undefined][] = [
    ["rows in file", p.rowCount],
    ["to create", p.toCreate],
    ["to update", p.toUpdate],
    ["unchanged", p.unchanged],
    ["to delete", p.toDelete],
  ];
  return [
    `Dry run (${p.importMode} into ${p.language}); nothing was written:`,
    ...rows.filter(([, n]) => n !== undefined).map(([label, n]) => `  ${label.padEnd(14)}${n}`),
  ].join("\n");
}

export function describeSummary({ summary: s }: JobView, language?: string): string {
  const counts = [`${s.created} created`, `${s.updated} updated`];
  if (s.deleted !== undefined) counts.push(`${s.deleted} deleted`);
  return `Imported${language === undefined ? "" : ` into ${language}`}: ${counts.join(", ")}`;
}
