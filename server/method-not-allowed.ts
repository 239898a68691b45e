/** Answers "which methods does this path have" from the app's own route table, for 405 + Allow. */
export function createRouteIndex(routes: readonly { method: string; path: string }[]) {
  const patterns = routes.map((r) => ({
    method: r.method.toUpperCase(),
    regex: new RegExp(`^${r.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+")}$`),
  }));
  return {
    /** The methods the path answers to, sorted; empty when no route has that path. */
    methodsFor(path: string): string[] {
      const methods = new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method));
      return [...methods].filter((m) => m !== "ALL").sort();
    },
  };
}
