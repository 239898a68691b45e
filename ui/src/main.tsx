import { render } from "preact";
import "./styles.css";
import { App } from "./app.tsx";
import { prefetchEditor } from "./editor/prefetch.ts";

prefetchEditor(window.location);
const root = document.getElementById("app");
if (root) render(<App />, root);
