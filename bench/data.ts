/**
 * The pushed documents: `rows` leaf strings nested three deep (screen → panel → label), about 240
 * bytes per leaf, so 50,000 rows make a 12 MB document. Deterministic, ASCII, nothing to escape.
 */

const BYTES_PER_LEAF = 240;
const WORDS = (
  "account add address again all allow amount apply archive back balance before billing cancel card change " +
  "check choose close confirm connect continue copy create current date default delete details device done " +
  "download draft edit email enable error export field file filter find first folder free help hide history " +
  "home import invite item language last later leave limit link list load local login manage message month " +
  "more name network new next note notify open order owner page password payment pending plan please preview " +
  "price print profile project publish recent refresh remove rename report request reset restore review save " +
  "search select send settings share show sign size start status storage submit support sync team theme time " +
  "today total try update upload user value verify view visible welcome window work year your"
).split(" ");
const TAG_LENGTH = 8; // " rev 001"

/** Builds documents of one shape whose values can be revised row by row. */
export class DocumentSet {
  private readonly base: string[];
  readonly valueLength: number;

  constructor(readonly rows: number) {
    // `"label_34":"…",` costs 14 bytes besides the value; panels and screens about 0.3 per leaf.
    this.valueLength = BYTES_PER_LEAF - 14;
    let seed = 0x2545f491;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    this.base = Array.from({ length: rows }, (_, i) => {
      let text = `${i} `;
      while (text.length < this.valueLength) text += `${WORDS[next() % WORDS.length]} `;
      const first = text.charAt(0).toUpperCase();
      return `${first}${text.slice(1, this.valueLength - 1)}.`;
    });
  }

  /** Where leaf i sits: screen_NNN.panel_NN.label_NN. */
  static path(i: number): [string, string, string] {
    return [
      `screen_${String(Math.floor(i / 1000)).padStart(3, "0")}`,
      `panel_${String(Math.floor((i % 1000) / 50)).padStart(2, "0")}`,
      `label_${String(i % 50).padStart(2, "0")}`,
    ];
  }

  /** The value of leaf i at revision `rev` (0: the original text); every revision keeps the length. */
  value(i: number, rev: number): string {
    const base = this.base[i] as string;
    return rev === 0
      ? base
      : `${base.slice(0, this.valueLength - TAG_LENGTH)} rev ${String(rev % 1000).padStart(3, "0")}`;
  }

  /** The document with every leaf at `revOf(i)`. */
  document(revOf: (i: number) => number = () => 0): string {
    const root: Record<string, Record<string, Record<string, string>>> = {};
    for (let i = 0; i < this.rows; i++) {
      const [screen, panel, label] = DocumentSet.path(i);
      root[screen] ??= {};
      const s = root[screen] as Record<string, Record<string, string>>;
      s[panel] ??= {};
      (s[panel] as Record<string, string>)[label] = this.value(i, revOf(i));
    }
    return JSON.stringify(root);
  }

  /**
   * The document after the `round`-th "10 % changed" push (round ≥ 1): round r revises the leaves
   * whose index ends in r mod 10, so from round r−1 to r exactly a tenth of the values change.
   */
  revisedDocument(round: number): string {
    return this.document((i) => {
      const last = round - ((((round - (i % 10)) % 10) + 10) % 10);
      return last >= 1 ? last : 0;
    });
  }
}

/** The floors' flatten: nested objects become dot-separated keys, as Parlance stores them. */
export function flattenDocument(doc: unknown): [string, string][] {
  const out: [string, string][] = [];
  const walk = (value: unknown, prefix: string) => {
    for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
      const key = prefix === "" ? name : `${prefix}.${name}`;
      if (child !== null && typeof child === "object") walk(child, key);
      else out.push([key, String(child)]);
    }
  };
  walk(doc, "");
  return out;
}
