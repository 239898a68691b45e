import type { Deps } from "./context.ts";
import type { KeyPrincipal } from "./principal.ts";
import type { Scope } from "./types.ts";
import type { UsageTracker } from "./usage.ts";

/** `GET /test` and `GET /project` without `project_id` (CONTRACT §5). */
export interface KeyInfo {
  name: string;
  organization: { id: string; name: string };
  scopes: Scope[];
  rateLimit: number;
  usageCount: number;
}

export async function keyInfo(deps: Deps, usage: UsageTracker, principal: KeyPrincipal): Promise<KeyInfo> {
  const key = await usage.view(principal.key, () => deps.storage.keys.get(principal.key.id));
  const org = await deps.storage.orgs.get(key.orgId);
  return {
    name: key.name,
    organization: { id: key.orgId, name: org?.name ?? "" },
    scopes: [...principal.scopes],
    rateLimit: key.rateLimit,
    usageCount: key.usageCount,
  };
}
