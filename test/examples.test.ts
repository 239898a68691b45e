import { expect, test } from "bun:test";
import { main } from "../examples/embedded-core.ts";

test("the embedding example runs and exports what it pushed", async () => {
  expect(JSON.parse(await main())).toEqual({ "home.title": "Bienvenue" });
});
