import { expect } from "./expect.ts";
import { seedProject } from "./fixtures.ts";
import { type StorageSetup, storageTests, type TestFunction } from "./harness.ts";

export function environmentContract(run: TestFunction, setup: StorageSetup, adapter: string): void {
  const test = storageTests(run, setup, `${adapter} › EnvironmentStore`);

  test("an environment without overrides lists nothing and does not exist", async (storage) => {
    const p = await seedProject(storage);
    expect((await storage.environments.list(p.id, "staging", "en")).size).toBe(0);
    expect(await storage.environments.exists(p.id, "staging")).toBe(false);
  });

  test("set inserts, then replaces the override of the same key", async (storage) => {
    const p = await seedProject(storage);
    const base = { projectId: p.id, environment: "staging", language: "en" };
    await storage.environments.set({ ...base, key: "title", value: "Staging" });
    await storage.environments.set({ ...base, key: "😀", value: "" });
    await storage.environments.set({ ...base, key: "title", value: "Staging 2" });
    expect(await storage.environments.list(p.id, "staging", "en")).toEqual(
      new Map([
        ["title", "Staging 2"],
        ["😀", ""],
      ]),
    );
  });

  test("overrides are kept apart by project, environment and language", async (storage) => {
    const p = await seedProject(storage);
    const q = await seedProject(storage);
    await storage.environments.set({
      projectId: p.id,
      environment: "staging",
      language: "en",
      key: "k",
      value: "pse",
    });
    await storage.environments.set({
      projectId: p.id,
      environment: "staging",
      language: "fr",
      key: "k",
      value: "psf",
    });
    await storage.environments.set({
      projectId: p.id,
      environment: "prod",
      language: "en",
      key: "k",
      value: "ppe",
    });
    await storage.environments.set({
      projectId: q.id,
      environment: "qa",
      language: "en",
      key: "k",
      value: "qqe",
    });
    expect(await storage.environments.list(p.id, "staging", "en")).toEqual(new Map([["k", "pse"]]));
    expect(await storage.environments.list(p.id, "staging", "fr")).toEqual(new Map([["k", "psf"]]));
    expect(await storage.environments.list(p.id, "prod", "en")).toEqual(new Map([["k", "ppe"]]));
    expect((await storage.environments.list(p.id, "prod", "fr")).size).toBe(0);
    expect(await storage.environments.exists(p.id, "staging")).toBe(true);
    expect(await storage.environments.exists(p.id, "prod")).toBe(true);
    expect(await storage.environments.exists(p.id, "qa")).toBe(false);
    expect(await storage.environments.exists(q.id, "qa")).toBe(true);
    expect(await storage.environments.exists(q.id, "staging")).toBe(false);
  });

  test("a returned map is the caller's own", async (storage) => {
    const p = await seedProject(storage);
    await storage.environments.set({
      projectId: p.id,
      environment: "e",
      language: "en",
      key: "k",
      value: "v",
    });
    (await storage.environments.list(p.id, "e", "en")).set("k", "changed");
    expect((await storage.environments.list(p.id, "e", "en")).get("k")).toBe("v");
  });
}
