/** `parlance status`: the project's coverage (GET /api/v1/coverage), as a table or as the report object. */
import type { CoverageReport } from "../../../core/index.ts";
import type { ParsedArgs } from "../args.ts";
import type { ClientContext } from "./context.ts";
import { switchFlag } from "./options.ts";

export const STATUS_FLAGS = ["project", "json"];

export async function status(ctx: ClientContext, args: ParsedArgs): Promise<void> {
  const asJson = switchFlag(args, "json");
  const { data } = await ctx.http.json<{ data: CoverageReport }>("/api/v1/coverage", {
    query: { project_id: ctx.projectId },
  });
  ctx.stdout.write(`${asJson ? JSON.stringify(data, null, 2) : coverageTable(data)}\n`);
}

export function coverageTable(report: CoverageReport): string {
  const keys = report.referenceKeyCount;
  const header = `${report.projectName} (${report.projectId}): base ${report.baseLanguage}, ${keys} reference key${keys === 1 ? "" : "s"}`;
  const rows = report.locales.map((l) => [
    l.language === report.baseLanguage ? `${l.language} (base)` : l.language,
    `${l.coveragePercent}%`,
    String(l.filledKeys),
    String(l.missingCount),
  ]);
  const table = [["LANGUAGE", "COVERAGE", "FILLED", "MISSING"], ...rows];
  const widths = table[0]?.map((_, i) => Math.max(...table.map((r) => (r[i] ?? "").length))) ?? [];
  // Language left-aligned, figures right-aligned so they line up by digit.
  const lines = table.map((r) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  "),
  );
  const note = report.hasReferenceKeys
    ? []
    : [`No reference keys yet: coverage counts the keys of the base language (${report.baseLanguage}).`];
  return [header, "", ...lines, ...note].join("\n");
}
