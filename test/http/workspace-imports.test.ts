import { afterEach, beforeEach, expect, test } from "bun:test";
import { forEachStore, startTestServer, type TestServer } from "../support/harness.ts";
import { expectErrorObject } from "../support/http.ts";
import { checkWorkspaceConformance, signedIn } from "../support/signed-in.ts";

checkWorkspaceConformance();

/** The workspace's upload: a JSON file as a push, previewed then run as a job the page polls. */
await forEachStore((kind) => {
  let s: TestServer;
  let orgId: string;
  let projectId: string;
  beforeEach(async () => {
    s = await startTestServer(kind);
    orgId = (await s.seed.org("Acme")).id;
    projectId = (await s.seed.project(orgId, { name: "Web", base: "en", languages: ["en", "fr"] })).id;
    await s.parlance.as(orgId).push({ projectId, language: "en", content: '{"a":"A","b":"B"}' });
    await s.idle();
  });
  afterEach(() => s.close());

  test("a developer previews, then imports; the job is read through the project", async () => {
    const dev = await signedIn(s, { orgId, role: "developer" });
    const imports = `/api/workspace/projects/${projectId}/imports`;
    const content = JSON.stringify({ a: "Â", c: { d: "D" } });
    const preview = await dev.fetch(imports, {
      method: "POST",
      json: { content, language: "en", dryRun: true },
    });
    expect(preview.status).toBe(200);
    expect(((await preview.json()) as { data: unknown }).data).toMatchObject({
      dryRun: true,
      importMode: "merge",
      language: "en",
      rowCount: 2,
      toCreate: 1,
      toUpdate: 1,
    });
    const accepted = await dev.fetch(imports, { method: "POST", json: { content, language: "en" } });
    expect(accepted.status).toBe(202);
    const { jobId } = ((await accepted.json()) as { data: { jobId: string } }).data;
    expect(accepted.headers.get("location")).toBe(`/api/workspace/projects/${projectId}/jobs/${jobId}`);
    await s.idle();
    const job = await dev.fetch(`/api/workspace/projects/${projectId}/jobs/${jobId}`);
    expect(job.status).toBe(200);
    expect(((await job.json()) as { data: unknown }).data).toMatchObject({
      id: jobId,
      projectId,
      status: "completed",
      summary: { created: 1, updated: 1 },
    });
    // The project's recent jobs list it, newest first, as its own endpoint shows it.
    const again = await dev.fetch(imports, {
      method: "POST",
      json: { content: '{"z":"Z"}', language: "en" },
    });
    const second = ((await again.json()) as { data: { jobId: string } }).data.jobId;
    await s.idle();
    const listed = await dev.fetch(`/api/workspace/projects/${projectId}/jobs`);
    expect(listed.status).toBe(200);
    const jobs = ((await listed.json()) as { data: { id: string }[] }).data;
    // Older jobs (the seeding push) follow them.
    expect(jobs.map((j) => j.id).slice(0, 2)).toEqual([second, jobId]);
    const single = await dev.fetch(`/api/workspace/projects/${projectId}/jobs/${jobId}`);
    expect(jobs[1] as unknown).toEqual(((await single.json()) as { data: unknown }).data);
    // Another project of the organization does not show it.
    const other = (await s.seed.project(orgId, { name: "Other", base: "en", languages: ["en"] })).id;
    await expectErrorObject(await dev.fetch(`/api/workspace/projects/${other}/jobs/${jobId}`), 404);
    const none = await dev.fetch(`/api/workspace/projects/${other}/jobs`);
    expect(((await none.json()) as { data: unknown[] }).data).toEqual([]);
  });

  test("a developer approves nothing by importing: rows await review, approved or needs_review is 403; an admin's are approved", async () => {
    const imports = `/api/workspace/projects/${projectId}/imports`;
    const statusOf = async (key: string) =>
      (await s.parlance.storage.translations.readLanguage(projectId, "fr")).get(key)?.status;
    const dev = await signedIn(s, { orgId, role: "developer" });
    for (const status of ["approved", "needs_review"]) {
      await expectErrorObject(
        await dev.fetch(imports, { method: "POST", json: { content: '{"a":"x"}', language: "fr", status } }),
        403,
        { message: "it takes one of the roles owner, admin, reviewer" },
      );
    }
    expect(await statusOf("a")).toBeUndefined();
    const imported = await dev.fetch(imports, {
      method: "POST",
      json: { content: '{"a":"x"}', language: "fr" },
    });
    expect(imported.status).toBe(202);
    const drafted = await dev.fetch(imports, {
      method: "POST",
      json: { content: '{"b":"y"}', language: "fr", status: "draft" },
    });
    expect(drafted.status).toBe(202);
    await s.idle();
    expect(await statusOf("a")).toBe("pending");
    expect(await statusOf("b")).toBe("draft");

    // Rows the import leaves as they are keep their status: only new and changed ones await review.
    await s.parlance.as(orgId).push({ projectId, language: "fr", content: '{"m":"M","n":"N"}' });
    await s.idle();
    expect([await statusOf("m"), await statusOf("n")]).toEqual(["approved", "approved"]);
    const preview = await dev.fetch(imports, {
      method: "POST",
      json: { content: '{"m":"M","n":"N2"}', language: "fr", dryRun: true },
    });
    expect(((await preview.json()) as { data: unknown }).data).toMatchObject({ toUpdate: 1, unchanged: 1 });
    await dev.fetch(imports, { method: "POST", json: { content: '{"m":"M","n":"N2"}', language: "fr" } });
    await s.idle();
    expect([await statusOf("m"), await statusOf("n")]).toEqual(["approved", "pending"]);

    const admin = await signedIn(s, { orgId, role: "admin" });
    expect(
      (await admin.fetch(imports, { method: "POST", json: { content: '{"c":"z"}', language: "fr" } })).status,
    ).toBe(202);
    await s.idle();
    expect(await statusOf("c")).toBe("approved");
  });

  test("translators and reviewers may not import; bad input is 400; strangers get 404", async () => {
    const imports = `/api/workspace/projects/${projectId}/imports`;
    const json = { content: '{"a":"x"}', language: "fr", dryRun: true };
    for (const role of ["translator", "reviewer"] as const) {
      const person = await signedIn(s, { orgId, role });
      await expectErrorObject(await person.fetch(imports, { method: "POST", json }), 403);
    }
    const dev = await signedIn(s, { orgId, role: "developer" });
    await expectErrorObject(
      await dev.fetch(imports, { method: "POST", json: { ...json, content: "[1]" } }),
      400,
    );
    await expectErrorObject(
      await dev.fetch(imports, { method: "POST", json: { ...json, language: "de" } }),
      400,
    );
    const stranger = await signedIn(s, { orgId: (await s.seed.org("Other")).id, role: "owner" });
    await expectErrorObject(await stranger.fetch(imports, { method: "POST", json }), 404);
    const anonymous = await s.app.handle(
      new Request(`http://localhost${imports}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://localhost" },
        body: JSON.stringify(json),
      }),
    );
    expect(anonymous.status).toBe(401);
  });

  test("downloads: every member exports each format, JSON nested too, as an attachment", async () => {
    const ana = await signedIn(s, { orgId, role: "translator", languages: ["fr"] });
    await s.parlance.as(orgId).push({
      projectId,
      language: "en",
      content: '{"home":{"title":"Hi"},"list":["x","y"]}',
    });
    await s.idle();
    const url = (q: string) => `/api/workspace/projects/${projectId}/export?${q}`;
    const flat = await ana.fetch(url("language=en"));
    expect(flat.status).toBe(200);
    expect(flat.headers.get("content-disposition")).toBe('attachment; filename="web.en.json"');
    expect(await flat.json()).toEqual({ a: "A", b: "B", "home.title": "Hi", "list.0": "x", "list.1": "y" });
    // Members named 0 … n-1 come back as an array, as the document declares.
    const nestedRes = await ana.fetch(url("language=en&format=json&nested=true"));
    expect(await nestedRes.text()).toBe(
      '{\n  "a": "A",\n  "b": "B",\n  "home": {\n    "title": "Hi"\n  },\n  "list": [\n    "x",\n    "y"\n  ]\n}\n',
    );
    expect(nestedRes.headers.get("etag")).not.toBe(flat.headers.get("etag"));
    for (const [format, type, name] of [
      ["csv", "text/csv", "web.en.csv"],
      ["xliff", "application/xliff+xml", "web.en.xlf"],
      ["xml", "application/xml", "web.en.xml"],
      ["yaml", "application/yaml", "web.en.yaml"],
    ]) {
      const res = await ana.fetch(url(`language=en&format=${format}`));
      expect(res.status, format).toBe(200);
      expect(res.headers.get("content-type"), format).toStartWith(type as string);
      expect(res.headers.get("content-disposition"), format).toBe(`attachment; filename="${name}"`);
    }
    const again = await ana.fetch(url("language=en"), {
      headers: { "if-none-match": flat.headers.get("etag") ?? "" },
    });
    expect(again.status).toBe(304);
    await expectErrorObject(await ana.fetch(url("language=en&format=csv&nested=true")), 400);
    await expectErrorObject(await ana.fetch(url("language=fr")), 404);
    const stranger = await signedIn(s, { orgId: (await s.seed.org("Elsewhere")).id, role: "owner" });
    await expectErrorObject(await stranger.fetch(url("language=en")), 404);
  });
});
