/**
 * The embedded library as most tests start it: `createParlance` over a store, one organization
 * ("Acme"), one project ("Web", base `en`) and an app acting for that organization as "ci".
 */
import { createParlance } from "../../adapters/create-parlance.ts";
import type { Storage } from "../../core/ports.ts";

export async function embeddedProject(storage: Storage, languages: string[]) {
  const parlance = createParlance({ storage });
  const org = await parlance.admin.createOrg("Acme");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "Web",
    baseLanguage: "en",
    languages,
  });
  return { parlance, org, project, app: parlance.as(org.id, "ci") };
}
