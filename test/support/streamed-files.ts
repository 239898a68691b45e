/**
 * Large files pulled from a server process over a real socket, in every format, against the
 * formatter's whole render of the same rows: what the listener writes of a streamed body (text
 * pieces under Bun, encoded ones elsewhere: server/file-body.ts) must be those bytes exactly.
 */
import { expect } from "bun:test";
import { compareCodePoints } from "../../core/code-point.ts";
import { FORMATTERS } from "../../core/formats/index.ts";
import type { Project } from "../../core/types.ts";

/** Pushes `content` (flat JSON) over HTTP and waits for its job to complete. */
export async function pushOverHttp(
  baseUrl: string,
  apiKey: string,
  body: { projectId: string; language: string; content: Record<string, string>; status?: string },
): Promise<void> {
  const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const res = await fetch(`${baseUrl}/api/v1/push`, {
    method: "POST",
    headers,
    body: JSON.stringify({ ...body, content: JSON.stringify(body.content) }),
  });
  expect(res.status).toBe(202);
  const { jobId } = (await res.json()) as { jobId: string };
  for (let i = 0; i < 400; i++) {
    const job = (await (await fetch(`${baseUrl}/api/v1/jobs/${jobId}`, { headers })).json()) as {
      data: { status: string };
    };
    if (job.data.status === "completed") return;
    expect(["pending", "running"]).toContain(job.data.status);
    await Bun.sleep(25);
  }
  throw new Error(`job ${jobId} did not complete`);
}

/** Each format once, XLIFF 2.0 and CSV's byte order mark besides. */
const CASES: [Record<string, string>, string, { bom?: boolean; xliffVersion?: "1.2" | "2.0" }][] = [
  ...[...FORMATTERS.keys()].map((f): [Record<string, string>, string, object] => [{ format: f }, f, {}]),
  [{ format: "xliff", xliff_version: "2.0" }, "xliff", { xliffVersion: "2.0" }],
  [{ format: "csv", bom: "true" }, "csv", { bom: true }],
];

/**
 * Pulls `fr` of `project` in every format and expects, for each, a streamed answer (no
 * Content-Length) whose bytes are the whole render of `fr` (status `status`), sources from `en`.
 */
export async function expectStreamedFiles(
  baseUrl: string,
  apiKey: string,
  project: Pick<Project, "id" | "name" | "baseLanguage" | "languages">,
  en: Record<string, string>,
  fr: Record<string, string>,
  status: "pending" | "approved",
): Promise<void> {
  const rows = Object.keys(fr)
    .sort(compareCodePoints)
    .map((key) => ({ key, value: fr[key] as string, status }));
  for (const [query, format, options] of CASES) {
    const res = await fetch(
      `${baseUrl}/api/v1/pull?${new URLSearchParams({ project_id: project.id, language: "fr", ...query })}`,
      { headers: { authorization: `Bearer ${apiKey}` } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBeNull();
    const expected = FORMATTERS.get(format)?.render({
      project: { ...project, orgId: "", deletedAt: null, createdAt: "" },
      language: "fr",
      rows,
      sources: new Map(Object.entries(en)),
      options: { bom: false, xliffVersion: "1.2", ...options },
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    // Bytes, not decoded text: a piece written in another encoding, or a character split, shows.
    expect(Buffer.from(bytes).equals(Buffer.from(expected ?? "", "utf8"))).toBe(true);
  }
}
