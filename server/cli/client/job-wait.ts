/** Polls GET /api/v1/jobs/{id} until the job leaves `pending`/`running` (API.md: States). */
import type { JobView } from "../../../core/index.ts";
import { ApiError } from "./api-error.ts";
import { type ClientContext, say } from "./context.ts";
import { ClientError } from "./errors.ts";
import { createProgress } from "./progress.ts";

/** Small jobs finish within a few hundred ms; long ones are polled every 2 s so a key's hourly allowance lasts. */
const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 2_000;
/**
 * How long polling outlasts a server it cannot reach (or that answers 5xx): the job was accepted
 * and is kept, so a restart or a database failover is waited through, not reported as a failure.
 */
export const POLL_OUTAGE_MS = 120_000;

/** A failure of the server or the network, which passes, as opposed to a refusal (4xx). */
const isOutage = (e: unknown) => e instanceof ClientError && (!(e instanceof ApiError) || e.status >= 500);

export async function waitForJob(ctx: ClientContext, jobId: string): Promise<JobView> {
  const progress = createProgress(ctx.stderr, jobId, ctx.now);
  let delay = FIRST_POLL_MS;
  let outageSince: number | null = null;
  progress.start();
  try {
    for (;;) {
      let job: JobView;
      try {
        ({ data: job } = await ctx.http.json<{ data: JobView }>(`/api/v1/jobs/${encodeURIComponent(jobId)}`));
        outageSince = null;
      } catch (e) {
        outageSince ??= ctx.now();
        if (!isOutage(e) || ctx.now() - outageSince >= POLL_OUTAGE_MS) throw e;
        say(ctx.stderr, `job ${jobId} was accepted; still waiting for the server (${(e as Error).message})`);
        await ctx.sleep(MAX_POLL_MS);
        continue;
      }
      if (job.status !== "pending" && job.status !== "running") {
        progress.end(job.status);
        return job;
      }
      progress.update(job.status);
      await ctx.sleep(delay);
      delay = Math.min(MAX_POLL_MS, Math.round(delay * 1.5));
    }
  } catch (e) {
    progress.abort();
    // The push itself was accepted: say so, or the user may push again thinking nothing happened.
    if (!(e instanceof ClientError)) throw e;
    const hint =
      e instanceof ApiError && e.status === 403
        ? "polling it needs the translations:read scope (--no-wait skips polling)"
        : `it may still complete: parlance wait --job ${jobId}`;
    throw new ClientError(`${e.message}\nthe push was accepted as job ${jobId}; ${hint}`);
  }
}
