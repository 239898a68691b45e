import { INVALID, parseCommonIcu } from "./icu-common.ts";
import { type IcuError, parseIcu } from "./icu-parse.ts";
import { type IcuInventory, inventory } from "./icu-walk.ts";
import type { Syntaxes } from "./scan.ts";

export type IcuRead = { ok: true; inv: IcuInventory } | { ok: false; error: IcuError | null };

/**
 * What an ICU text holds, or why it is not ICU (`error` null when `explain` is false and the reason
 * is not needed). The common forms are read by icu-common.ts; the rest, and the explanation of every
 * error, by FormatJS's parser. Never throws.
 */
export function readIcu(text: string, syntaxes: Syntaxes, explain: boolean): IcuRead {
  const ast = parseCommonIcu(text);
  if (ast === INVALID && !explain) return { ok: false, error: null };
  if (ast !== null && ast !== INVALID) return { ok: true, inv: inventory(ast, syntaxes) };
  const parsed = parseIcu(text);
  return parsed.ok ? { ok: true, inv: inventory(parsed.ast, syntaxes) } : parsed;
}
