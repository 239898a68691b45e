/**
 * The ceiling of the small-GET figure: an Elysia hello-world on the same route path Parlance serves,
 * started as its own process and loaded with the same generator and settings. Prints the
 * `listening` line Parlance prints, so one helper starts both.
 */
import { Elysia } from "elysia";

const app = new Elysia().get("/api/v1/project", () => ({ message: "Hello, world" }));
app.listen({ port: Number(process.env.PORT ?? 0), hostname: process.env.HOST ?? "127.0.0.1" });
process.stderr.write(`${JSON.stringify({ message: "listening", port: app.server?.port })}\n`);
const stop = () => {
  void app.stop().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
