import { render } from "preact";
import "./styles.css";
import { App } from "./app.tsx";
import { prefetchEditor } from "./editor/prefetch.ts";
import { loadMe } from "./session.ts";

// Asked before the first render (whose effects wait for a paint): who is signed in, and on a
// project's pages what they show, travel together.
void loadMe();
prefetchEditor(window.location);
const root = document.getElementById("app");
if (root) render(<App />, root);
