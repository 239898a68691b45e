/**
 * Issue 14: the documentation stands on its own. What a reader of the repository gets (README,
 * CHANGELOG, docs/) cites no file that is not in it (the product brief Parlance was built from is
 * not shipped), and every relative link reaches a file of the repository, and a heading there when
 * it names one.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO } from "../support/process.ts";

const DOCUMENTS = [
  "README.md",
  "CHANGELOG.md",
  ...readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The anchors of a Markdown file's headings, outside code blocks. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) found.add(slug(heading[1] as string));
  }
  return found;
}

/** Relative link targets (`[text](target)`) outside code blocks and inline code. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe.each(DOCUMENTS)("%s", (document) => {
  const text = readFileSync(join(REPO, document), "utf8");

  test("cites no file outside the repository", () => {
    const cited = text.match(/\bAPI\.md\b|\bCONTRACT\b|\bSTYLE\.md\b|\.\.\/shared\b/g) ?? [];
    expect(cited).toEqual([]);
  });

  test("every relative link reaches a file of the repository, and its heading", () => {
    for (const target of links(text)) {
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? join(REPO, document) : resolve(dirname(join(REPO, document)), path);
      expect(relative(REPO, file).startsWith(".."), `${target} leaves the repository`).toBe(false);
      expect(existsSync(file), `${target}: no such file`).toBe(true);
      if (anchor && statSync(file).isFile() && file.endsWith(".md"))
        expect([...anchors(readFileSync(file, "utf8"))], `${target}: no such heading`).toContain(anchor);
    }
  });
});
