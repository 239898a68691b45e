/** `s` as a literal inside a regular expression (placeholder names come from user text). */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
