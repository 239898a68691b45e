/** The figures `bun run bench` reports, in report order (the names). */

export const STORES = ["sqlite", "postgres"] as const;
export type StoreKind = (typeof STORES)[number];

export const FORMATS = ["json", "csv", "xliff", "xml", "yaml"] as const;
export type Format = (typeof FORMATS)[number];

export const pushName = (store: StoreKind, variant: "new" | "10pct") => `push-50k-${store}-${variant}`;
export const pullName = (store: StoreKind, format: Format) => `pull-50k-${store}-${format}`;
export const getName = (store: StoreKind) => `get-small-${store}`;
/** Measured on SQLite, the default store (the issue names no store for it). */
export const PEAK_RSS = "peak-rss-push-12mb";

export function storeFigureNames(store: StoreKind): string[] {
  return [
    pushName(store, "new"),
    pushName(store, "10pct"),
    ...FORMATS.map((f) => pullName(store, f)),
    getName(store),
    ...(store === "sqlite" ? [PEAK_RSS] : []),
  ];
}

/** `checkTranslation` over 50,000 pairs, in process: no store, no server. */
export const CHECKS = "checks-50k";

export const ALL_FIGURES: readonly string[] = [...STORES.flatMap(storeFigureNames), CHECKS];

/** Target per figure: the ratio must stay at most (`max`) or at least (`min`) this. */
export const TARGETS: Readonly<Record<string, { max?: number; min?: number }>> = Object.fromEntries(
  STORES.flatMap((store) => [
    [pushName(store, "new"), { max: 1.5 }],
    [pushName(store, "10pct"), { max: 1.5 }],
    ...FORMATS.map((f) => [pullName(store, f), { max: f === "json" ? 2 : 3 }]),
    [getName(store), { min: store === "sqlite" ? 0.5 : 0.2 }],
  ]).concat([[PEAK_RSS, { max: 4 }]]),
);
