import { createOrg } from "./admin.ts";
import { createKey } from "./api-keys.ts";
import type { Deps } from "./context.ts";
import { SCOPES } from "./types.ts";

/**
 * First start (CONTRACT §1): when the store holds no API key at all, creates the organization
 * `Default` and a key `bootstrap` with every scope. Returns the full key (shown once), or null.
 */
export async function bootstrap(deps: Deps): Promise<{ key: string; orgId: string } | null> {
  // Exclusive: instances starting together on an empty shared store must create one key, not two.
  return deps.storage.exclusive("bootstrap", async () => {
    if ((await deps.storage.keys.count()) > 0) return null;
    const org = await createOrg(deps, "Default");
    const created = await createKey(deps, org.id, { name: "bootstrap", scopes: SCOPES });
    return { key: created.key, orgId: org.id };
  });
}
