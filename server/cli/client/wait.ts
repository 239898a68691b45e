/** `parlance wait`: waits for an import job, as push does, for a push made with --no-wait. */
import type { ParsedArgs } from "../args.ts";
import type { ClientContext } from "./context.ts";
import { ClientError } from "./errors.ts";
import { waitForJob } from "./job-wait.ts";
import { requiredValue, switchFlag } from "./options.ts";
import { describeSummary } from "./push.ts";

export const WAIT_FLAGS = ["job", "json"];

export async function wait(ctx: ClientContext, args: ParsedArgs): Promise<void> {
  const jobId = requiredValue(args, "job");
  const asJson = switchFlag(args, "json");
  const job = await waitForJob(ctx, jobId);
  const print = (text: string) => ctx.stdout.write(`${text}\n`);
  // The same outputs and exit codes as push's own wait, so a pipeline may split the two.
  if (asJson) print(JSON.stringify(job, null, 2));
  if (job.status !== "completed")
    throw new ClientError(`job ${jobId} ${job.status}: ${job.errorMessage ?? "the server gave no reason"}`);
  if (!asJson) print(describeSummary(job));
}
