import { paging } from "./api-keys.ts";
import { authorize } from "./authorization.ts";
import type { Deps } from "./context.ts";
import { notFound } from "./errors.ts";
import { requireLocale } from "./locale.ts";
import type { Principal } from "./principal.ts";
import { visibleProject } from "./projects.ts";
import type { TranslationStatus } from "./types.ts";

export interface TranslationView {
  id: string;
  key: string;
  language: string;
  value: string;
  status: TranslationStatus;
  updatedAt: string;
}

/** Read-only listing (CONTRACT §5 extension): how clients learn the ids `selected_ids` takes. */
export async function listTranslations(
  deps: Deps,
  principal: Principal,
  q: { projectId: string; language: string; limit?: number; offset?: number },
) {
  authorize(principal, "translations.read");
  requireLocale(q.language);
  const page = paging(q.limit, q.offset, 1000, 100);
  const project = await visibleProject(deps, principal, q.projectId, "project_id");
  if (!project.languages.includes(q.language)) throw notFound(`The project has no language ${q.language}`);
  const { items, total } = await deps.storage.translations.listPage(
    project.id,
    q.language,
    page.limit,
    page.offset,
  );
  const data: TranslationView[] = items.map((t) => ({
    id: t.id,
    key: t.key,
    language: t.language,
    value: t.value,
    status: t.status,
    updatedAt: t.updatedAt,
  }));
  return { data, pagination: { total, ...page } };
}
