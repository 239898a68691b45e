/**
 * The file name of an attachment (RFC 6266), reduced to a bare name: whatever the header says, a
 * pull must never write outside the folder it was asked to write into.
 */
export function attachmentFileName(header: string | null): string | null {
  if (!header) return null;
  // RFC 6266 §4.3: filename* (RFC 8187, percent-encoded UTF-8) wins over filename.
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)'[^']*'([^;\s]+)/.exec(header);
  let name: string | undefined;
  if (extended?.[1]) {
    try {
      name = decodeURIComponent(extended[1]);
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) {
    const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header);
    const token = /filename\s*=\s*([^";\s]+)/.exec(header);
    name = quoted?.[1]?.replace(/\\(.)/g, "$1") ?? token?.[1];
  }
  return name === undefined ? null : safeName(name);
}

function safeName(name: string): string | null {
  const base = name.split(/[/\\]/).pop()?.trim() ?? "";
  // A leading dot is refused too: a pull should not be able to write a hidden file such as .bashrc.
  if (base === "" || base.startsWith(".") || /[\u0000-\u001f\u007f]/.test(base)) return null;
  return base;
}
