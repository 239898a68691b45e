/**
 * Embedding Parlance's core without HTTP: in-memory storage, push a file, wait for the job, export.
 * Run: bun examples/embedded-core.ts
 */
import { runtimeHasher } from "../adapters/hasher.ts";
import { createMemoryRateLimiter } from "../adapters/memory-rate-limiter.ts";
import { createPQueueJobQueue } from "../adapters/p-queue-job-queue.ts";
import { systemClock } from "../adapters/system-clock.ts";
import { createParlance } from "../core/index.ts";
import { createMemoryStorage } from "../storage/memory/index.ts";

export async function main(): Promise<string> {
  const storage = createMemoryStorage();
  const queue = createPQueueJobQueue();
  const rateLimiter = await createMemoryRateLimiter(null, systemClock);
  const parlance = createParlance({ storage, queue, clock: systemClock, rateLimiter, hasher: runtimeHasher });

  const org = await parlance.admin.createOrg("Acme");
  const project = await parlance.admin.createProject({
    orgId: org.id,
    name: "Web",
    baseLanguage: "en",
    languages: ["fr"],
  });
  const { key } = await parlance.admin.createKey(org.id, {
    name: "app",
    scopes: ["translations:write", "export:read"],
  });
  const { principal } = await parlance.admit({ authorization: `Bearer ${key}`, address: () => "embedded" });
  if (!principal) throw new Error("the key we just made was refused");

  await parlance.push(principal, {
    projectId: project.id,
    language: "fr",
    content: '{"home":{"title":"Bienvenue"}}',
  });
  await queue.onIdle(); // the import ran in the background
  const file = await parlance.pull(principal, { projectId: project.id, language: "fr" });
  await parlance.close();
  return file.body;
}

if (import.meta.main) process.stdout.write(await main());
