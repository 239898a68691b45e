/** `parlance whoami`: which key this is, whose organization, and what it may do (GET /api/v1/test). */
import type { KeyInfo } from "../../../core/index.ts";
import type { ParsedArgs } from "../args.ts";
import type { ClientContext } from "./context.ts";
import { switchFlag } from "./options.ts";

export const WHOAMI_FLAGS = ["json"];

export async function whoami(ctx: ClientContext, args: ParsedArgs): Promise<void> {
  const asJson = switchFlag(args, "json");
  const { data } = await ctx.http.json<{ data: KeyInfo }>("/api/v1/test");
  const text = [
    `Key:          ${data.name}`,
    `Organization: ${data.organization.name} (${data.organization.id})`,
    `Scopes:       ${data.scopes.length > 0 ? data.scopes.join(", ") : "(none)"}`,
  ].join("\n");
  ctx.stdout.write(`${asJson ? JSON.stringify(data, null, 2) : text}\n`);
}
