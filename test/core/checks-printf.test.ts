/**
 * printf placeholders as Android, iOS, gettext (C and Python) and Qt strings write them. gettext's own
 * checker, `msgfmt --check-format`, judges each pair too: the checks warn exactly when it refuses.
 */
import { describe, expect, test } from "bun:test";
import { checkTranslation, type Warning } from "../../core/index.ts";
import { type Tool, testWith } from "../formats/support/tools.ts";

const check = (base: string, value: string, language = "fr"): Warning[] =>
  checkTranslation({ base, value, baseLanguage: "en", language });
const printfWarnings = (base: string, value: string) =>
  check(base, value).filter((w) => w.syntax === "printf");

const MSGFMT: Tool = { name: "msgfmt", path: Bun.which("msgfmt"), pkg: "gettext" };

const po = (s: string) => JSON.stringify(s); // a PO string is a C string: JSON's escapes are valid there

/** Whether msgfmt accepts `value` as the translation of `base` under the given format flag. */
function msgfmtAccepts(flag: string, base: string, value: string): boolean {
  const file = `msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n#, ${flag}\nmsgid ${po(base)}\nmsgstr ${po(value)}\n`;
  const run = Bun.spawnSync([MSGFMT.path as string, "--check-format", "-o", "/dev/null", "-"], {
    stdin: new TextEncoder().encode(file),
    stderr: "pipe",
  });
  return run.exitCode === 0;
}

/** Real strings: Android strings.xml, iOS Localizable.strings, GNU gettext catalogs, Python, Qt. */
const PAIRS: [flag: string, base: string, translation: string][] = [
  ["c-format", "%1$s sent you %2$d files", "%1$s vous a envoyé %2$d fichiers"],
  ["c-format", "%1$s sent you %2$d files", "أرسل لك %1$s عدد %2$d من الملفات"],
  ["c-format", "%1$s sent you %2$d files", "%2$d fichiers envoyés par %1$s"],
  ["c-format", "%1$s sent you %2$d files", "%1$s vous a envoyé des fichiers"],
  ["c-format", "%1$s sent you %2$d files", "%1$s hat dir %2$s Dateien gesendet"],
  ["c-format", "Battery at %d%%", "Akku bei %d %%"],
  ["c-format", "Battery at %d%%", "Batterie à %d %"],
  ["c-format", "%.1f%% complete", "%.1f %% terminé"],
  ["c-format", "%s: cannot open file %s", "%s : impossible d’ouvrir le fichier %s"],
  ["c-format", "Copying %s to %s", "Kopiere %s nach %s"],
  ["c-format", "Deleted %d of %d items", "%d éléments sur %d supprimés"],
  ["c-format", "Found %s in %d files", "%d ファイルで %s が見つかりました"],
  ["c-format", "Found %s in %d files", "%2$d ファイルで %1$s が見つかりました"],
  ["c-format", "%s", "%s %s"],
  ["c-format", "%ld bytes", "%d octets"],
  ["c-format", "%i items", "%d éléments"],
  ["c-format", "Download %s 🎉", "下载 %s 🎉"],
  ["c-format", "Progress: %d%%", "進行状況：%d%%"],
  ["objc-format", "%@ liked your photo", "%@さんがあなたの写真にいいねしました"],
  ["objc-format", "%1$@ and %2$@ are friends", "%2$@ et %1$@ sont amis"],
  ["objc-format", "%lu items", "%lu éléments"],
  ["objc-format", "%lu items", "%d éléments"],
  ["python-format", "%(user)s invited %(count)d people", "%(count)d personnes invitées par %(user)s"],
  ["python-format", "%(user)s invited %(count)d people", "Invitations de %(user)s"],
  ["qt-format", "%1 of %2", "%2 de %1"],
  ["qt-format", "%1 of %2", "%1 seulement"],
];

describe("printf placeholders", () => {
  testWith([MSGFMT], "warn exactly when msgfmt --check-format refuses the translation", () => {
    for (const [flag, base, value] of PAIRS) {
      const warnings = printfWarnings(base, value);
      expect(warnings.length > 0, `${flag}: ${base} → ${value}: ${JSON.stringify(warnings)}`).toBe(
        !msgfmtAccepts(flag, base, value),
      );
    }
  });

  test("a sequential reorder is one order warning that shows how to number them", () => {
    const [w] = check("%s of %d", "%d de %s");
    expect(w?.code).toBe("placeholder-order");
    expect(w?.message).toContain("%1$s, %2$d");
    expect(check("%s of %d", "%2$d de %1$s")).toEqual([]);
  });

  test("positional directives may move freely, also in right-to-left text", () => {
    expect(check("%1$s sent you %2$d files", "%2$d קבצים נשלחו אליך מאת %1$s", "he")).toEqual([]);
  });

  test("a directive typed backwards in right-to-left text is pointed out", () => {
    const [w] = check("%1$s sent you %2$d files", "أرسل لك s$1% عدد %2$d من الملفات", "ar");
    expect(w).toMatchObject({ code: "placeholder-missing", placeholder: "%1$s" });
    expect(w?.message).toContain("backwards");
  });

  test("the count of sequential directives matters, and says which one", () => {
    expect(check("Copying %s to %s", "Copie de %s")).toMatchObject([
      { code: "placeholder-missing", placeholder: "%s", syntax: "printf" },
    ]);
    const [w] = check("%1$s sent you %2$d files", "%1$s vous a envoyé %2$s fichiers");
    expect(w?.message).toContain("%2$d");
  });

  test("a lone % in a printf string is flagged; %% is a percent sign", () => {
    const [w] = check("Battery at %d%%", "Batterie à %d %");
    expect(w).toMatchObject({ code: "placeholder-extra", placeholder: "%" });
    expect(w?.message).toContain("%%");
    expect(check("Battery at %d%%", "Batterie à %d %%")).toEqual([]);
  });

  test("text with % but no directive in the base is not read as printf", () => {
    // "20%ige" is German, not an integer directive; "100 %" is French typography.
    expect(check("A 20% increase", "Eine 20%ige Steigerung", "de")).toEqual([]);
    expect(check("100% sure", "Sûr à 100 %")).toEqual([]);
    expect(check("50% off", "50 % de réduction")).toEqual([]);
  });

  test("a space after % is not a directive, so French spacing never looks like `% d`", () => {
    expect(check("%d%% done", "%d %% terminé")).toEqual([]);
  });

  test("a strftime date format may be rearranged: its % directives are not printf", () => {
    expect(check("%a %b %e %H:%M:%S %Y", "%a %d %b %Y %T %Z")).toEqual([]);
    expect(check("%I:%M %p", "%p%I時%M分", "ja")).toEqual([]);
    expect(check("%I:%M %p", "%OI:%OM %p", "ar")).toEqual([]);
  });

  test("glibc's I flag (locale digits) and gettext's <PRIdMAX> macros are directives", () => {
    expect(check("Error on line %d: %s", "خطأ في السطر %Id: %s", "ar")).toEqual([]);
    expect(check("%.1f MB", "%I.1f م.بايت", "ar")).toEqual([]);
    expect(check("truncated to %<PRIdMAX> bytes in %s", "%2$s tronqué à %1$<PRIdMAX> octets")).toEqual([]);
  });

  test("a directive the translation adds reads a value that is never passed", () => {
    expect(check("Adding new group '%s' ...", "Lege neue Gruppe »%s« (Kennung %d) an …", "de")).toMatchObject(
      [{ code: "placeholder-extra", placeholder: "%d", syntax: "printf" }],
    );
  });

  test("a full-width ％ typed by an input method is pointed out", () => {
    const [w] = check("Could not find '%s::%s'.", "'％s ::％s'が見つかりません。", "ja");
    expect(w?.code).toBe("placeholder-missing");
    expect(w?.message).toContain("full-width");
  });

  test("Qt and Python named directives", () => {
    expect(check("%1 of %2", "%2 de %1")).toEqual([]);
    expect(check("%(user)s joined", "%(user)s a rejoint")).toEqual([]);
    expect(check("%(user)s joined", "%(utilisateur)s a rejoint").map((w) => w.code)).toEqual([
      "placeholder-missing",
      "placeholder-extra",
    ]);
  });
});
