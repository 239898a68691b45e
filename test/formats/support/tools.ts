/**
 * External consumers (xmllint, Python, aapt, Ruby), each run once over a batch of files. A missing
 * tool skips its tests locally and fails them in CI (`CI` set), naming the Debian package.
 */
import { test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Pairs } from "./readers.ts";

/** OASIS's XLIFF schemas, W3C's xml.xsd and a catalog mapping their URLs to these copies (offline). */
export const SCHEMAS_DIR = path.resolve(import.meta.dir, "../schemas");
export const XSD_12 = path.join(SCHEMAS_DIR, "xliff-core-1.2-strict.xsd");
export const XSD_20 = path.join(SCHEMAS_DIR, "xliff_core_2.0.xsd");

export interface Tool {
  name: string;
  path: string | null;
  /** Debian package that provides it. */
  pkg: string;
}

function locate(name: string, ...fallbacks: string[]): string | null {
  return Bun.which(name) ?? fallbacks.find((p) => existsSync(p)) ?? null;
}

export const XMLLINT: Tool = { name: "xmllint", path: locate("xmllint"), pkg: "libxml2-utils" };
export const PYTHON: Tool = { name: "python3", path: locate("python3"), pkg: "python3" };
export const AAPT: Tool = { name: "aapt", path: locate("aapt"), pkg: "aapt" };
export const AAPT2: Tool = {
  name: "aapt2",
  path: locate("aapt2", "/usr/lib/android-sdk/build-tools/debian/aapt2"),
  pkg: "aapt",
};
export const RUBY: Tool = { name: "ruby", path: locate("ruby"), pkg: "ruby" };
export const SCHEMAS: Tool = {
  name: "test/formats/schemas",
  path: existsSync(XSD_12) ? SCHEMAS_DIR : null,
  pkg: "(part of the repository)",
};

/** `test` when every tool is present; otherwise skipped, or failing in CI. */
export function testWith(
  tools: Tool[],
  name: string,
  fn: () => void | Promise<void>,
  timeout = 60_000,
): void {
  const missing = tools.filter((t) => t.path === null);
  if (missing.length === 0) {
    test(name, fn, timeout);
    return;
  }
  const what = missing.map((t) => `${t.name} (${t.pkg})`).join(", ");
  if (process.env.CI) {
    test(name, () => {
      throw new Error(`missing ${what}`);
    });
  } else {
    test.skip(`${name} [needs ${what}]`, fn);
  }
}

function tool(t: Tool): string {
  if (t.path === null) throw new Error(`${t.name} is not installed (${t.pkg})`);
  return t.path;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string[], env: Record<string, string> = {}, cwd?: string): Run {
  const p = Bun.spawnSync(cmd, { env: { ...process.env, ...env }, cwd, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

/** A fresh temporary folder; `files` are written into it by name. */
export function scratch(files: Record<string, string> = {}): { dir: string; paths: string[]; done(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "parlance-formats-"));
  const paths = Object.entries(files).map(([name, content]) => {
    const p = path.join(dir, name);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
    return p;
  });
  return { dir, paths, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Schema-validates every file in one xmllint run, offline through the shared catalog. */
export function xmllintValidate(xsd: string, files: string[]): Run {
  return run([tool(XMLLINT), "--noout", "--nonet", "--schema", xsd, ...files], {
    XML_CATALOG_FILES: path.join(SCHEMAS_DIR, "catalog.xml"),
  });
}

function runJson(cmd: string[]): unknown {
  const r = run(cmd);
  if (r.code !== 0) throw new Error(`${cmd[0]} failed (${r.code}):\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

const PY_CSV = `
import csv, json, sys
csv.field_size_limit(sys.maxsize)
out = []
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        bom = f.read(3) == b"\\xef\\xbb\\xbf"
    with open(path, newline="", encoding="utf-8-sig") as f:
        out.append({"bom": bom, "rows": list(csv.reader(f))})
print(json.dumps(out))
`;

/** Python's csv module (the dialect sniffing nobody uses: plain `csv.reader`) over every file. */
export function pythonCsv(files: string[]): { bom: boolean; rows: string[][] }[] {
  return runJson([tool(PYTHON), "-c", PY_CSV, ...files]) as { bom: boolean; rows: string[][] }[];
}

const PY_XML = `
import json, sys
import xml.etree.ElementTree as ET
SPACE = "{http://www.w3.org/XML/1998/namespace}space"
N12 = "{urn:oasis:names:tc:xliff:document:1.2}"
N20 = "{urn:oasis:names:tc:xliff:document:2.0}"
def text(e):
    if e is None:
        return None
    if len(e):
        raise Exception("unexpected child element in " + e.tag)
    return e.text or ""
def read(path):
    root = ET.parse(path).getroot()
    if root.tag == N12 + "xliff":
        f = root.find(N12 + "file")
        units = [{"id": u.get("id"), "key": u.get("resname"), "space": u.get(SPACE),
                  "source": text(u.find(N12 + "source")), "target": text(u.find(N12 + "target")),
                  "state": u.find(N12 + "target").get("state")}
                 for u in f.find(N12 + "body").findall(N12 + "trans-unit")]
        return {"version": root.get("version"), "original": f.get("original"),
                "sourceLanguage": f.get("source-language"), "targetLanguage": f.get("target-language"), "units": units}
    if root.tag == N20 + "xliff":
        f = root.find(N20 + "file")
        units = []
        for u in f.findall(N20 + "unit"):
            s = u.find(N20 + "segment")
            units.append({"id": u.get("id"), "key": u.get("name"), "space": u.get(SPACE),
                          "source": text(s.find(N20 + "source")), "target": text(s.find(N20 + "target")),
                          "state": s.get("state")})
        return {"version": root.get("version"), "original": f.get("original"),
                "sourceLanguage": root.get("srcLang"), "targetLanguage": root.get("trgLang"), "units": units}
    if root.tag == "resources":
        return {"strings": [{"name": s.get("name"), "formatted": s.get("formatted"), "raw": text(s)}
                            for s in root.findall("string")]}
    raise Exception("unknown root " + root.tag)
print(json.dumps([read(p) for p in sys.argv[1:]]))
`;

/** Python's ElementTree (expat, a conforming XML 1.0 parser) over every file. */
export function pythonXml(files: string[]): unknown[] {
  return runJson([tool(PYTHON), "-c", PY_XML, ...files]) as unknown[];
}

const RB_YAML = `
require "yaml"
require "json"
out = ARGV.map do |f|
  doc = YAML.safe_load(File.read(f, encoding: "UTF-8"))
  raise "#{f}: not a mapping" unless doc.is_a?(Hash)
  doc.to_a
end
print JSON.generate(out)
`;

/** Ruby's YAML (Psych on libyaml, a YAML 1.1 reader): key/value pairs of every file. */
export function rubyYaml(files: string[]): Pairs[] {
  return runJson([tool(RUBY), "-e", RB_YAML, ...files]) as Pairs[];
}

const MANIFEST = `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="dev.parlance.check"/>
`;

/** `aapt dump --values` writes `\\`, LF and `"` escaped and everything else as it is. */
function undumpAapt(s: string): string {
  return s.replace(/\\([\\n"])/g, (_, c: string) => (c === "n" ? "\n" : c));
}

/**
 * Compiles `res/values/<name>` files with aapt (package, no android.jar needed) and with aapt2
 * (compile + link) when present, and returns the compiled string values by resource name, as
 * aapt's own dump shows them.
 */
export function aaptCompile(valuesFiles: Record<string, string>): Map<string, string> {
  const files: Record<string, string> = { "AndroidManifest.xml": MANIFEST };
  for (const [name, content] of Object.entries(valuesFiles)) files[`res/values/${name}`] = content;
  const s = scratch(files);
  try {
    const pack = run(
      [tool(AAPT), "package", "-f", "-M", "AndroidManifest.xml", "-S", "res", "-F", "out.apk"],
      {},
      s.dir,
    );
    if (pack.code !== 0) throw new Error(`aapt package failed:\n${pack.stderr}`);
    if (AAPT2.path !== null) {
      const compile = run([AAPT2.path, "compile", "--dir", "res", "-o", "compiled.zip"], {}, s.dir);
      if (compile.code !== 0) throw new Error(`aapt2 compile failed:\n${compile.stderr}`);
      const link = run(
        [AAPT2.path, "link", "--manifest", "AndroidManifest.xml", "-o", "out2.apk", "compiled.zip"],
        {},
        s.dir,
      );
      if (link.code !== 0) throw new Error(`aapt2 link failed:\n${link.stderr}`);
    }
    const dump = run([tool(AAPT), "dump", "--values", "resources", "out.apk"], {}, s.dir);
    if (dump.code !== 0) throw new Error(`aapt dump failed:\n${dump.stderr}`);
    const values = new Map<string, string>();
    const lines = dump.stdout.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const head = /^\s+resource 0x[0-9a-f]+ [^:]+:string\/(.+): t=0x03 /.exec(lines[i] as string);
      if (!head) continue;
      const value = /^\s+\(string(?:8|16)\) "(.*)"$/s.exec(lines[i + 1] ?? "");
      if (!value) throw new Error(`unexpected aapt dump line after ${lines[i]}: ${lines[i + 1]}`);
      values.set(head[1] as string, undumpAapt(value[1] as string));
    }
    return values;
  } finally {
    s.done();
  }
}
