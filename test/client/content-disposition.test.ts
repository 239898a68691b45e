import { expect, test } from "bun:test";
import { attachmentFileName } from "../../server/cli/client/content-disposition.ts";

test("the attachment's file name, as the server sends it", () => {
  expect(attachmentFileName('attachment; filename="my-app.fr.json"')).toBe("my-app.fr.json");
  expect(attachmentFileName("attachment; filename=web.de.csv")).toBe("web.de.csv");
  expect(attachmentFileName(`attachment; filename="a.json"; filename*=UTF-8''caf%C3%A9.fr.json`)).toBe(
    "café.fr.json",
  );
});

test("never a path: only the last component is kept", () => {
  expect(attachmentFileName('attachment; filename="../../etc/passwd"')).toBe("passwd");
  expect(attachmentFileName('attachment; filename="/tmp/x.json"')).toBe("x.json");
  expect(attachmentFileName('attachment; filename="..\\\\evil.json"')).toBe("evil.json");
});

test("a hidden file or no name at all gives null, and the client names the file itself", () => {
  for (const header of [
    'attachment; filename=".bashrc"',
    'attachment; filename=".."',
    'attachment; filename=""',
  ])
    expect(attachmentFileName(header)).toBeNull();
  expect(attachmentFileName("attachment")).toBeNull();
  expect(attachmentFileName(null)).toBeNull();
});
