/** "/i18n/" and "i18n" both mean "/i18n"; "" and "/" mean the root (""). */
export function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "" : `/${trimmed}`;
}
