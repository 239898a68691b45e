import { STATUS_LABEL } from "../types.ts";

/** The colours of the coverage bars, in words. */
export function Legend() {
  return (
    <ul class="legend" aria-label="Legend">
      {(["approved", "needs_review", "pending", "draft", "missing"] as const).map((p) => (
        <li key={p}>
          <i class={`seg ${p}`} />
          {STATUS_LABEL[p]}
        </li>
      ))}
    </ul>
  );
}
