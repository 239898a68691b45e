import type { Deps } from "./context.ts";
import { ParlanceError } from "./errors.ts";
import { type ImportPlan, rowsAfter } from "./import-plan.ts";

/** The organization's quota, or null when it has none (the default). */
export async function quotaOf(deps: Deps, orgId: string): Promise<number | null> {
  return (await deps.storage.orgs.get(orgId))?.maxTranslations ?? null;
}

/** 402 when the plan would leave the organization with more rows than its quota. */
export async function enforceQuota(
  deps: Deps,
  orgId: string,
  max: number | null,
  plan: ImportPlan,
): Promise<void> {
  if (max === null) return;
  const after = rowsAfter(await deps.storage.translations.countByOrg(orgId), plan);
  if (after > max) {
    throw new ParlanceError(
      "quota_exceeded",
      `Translation quota exceeded: this push would leave ${after} translations, the organization's quota is ${max}`,
    );
  }
}

/**
 * 402 when `added` new rows (records a workspace edit, a key, a copy or a restore creates) would
 * leave the organization with more rows than its quota: the quota counts every way in, not pushes
 * alone.
 */
export async function enforceQuotaForAdded(deps: Deps, orgId: string, added: number): Promise<void> {
  if (added <= 0) return;
  const max = await quotaOf(deps, orgId);
  if (max === null) return;
  const after = (await deps.storage.translations.countByOrg(orgId)) + added;
  if (after > max) {
    throw new ParlanceError(
      "quota_exceeded",
      `Translation quota exceeded: this would leave ${after} translations, the organization's quota is ${max}`,
    );
  }
}
