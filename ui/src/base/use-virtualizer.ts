/**
 * @tanstack/virtual-core in a Preact component: the library says which rows to draw and where;
 * the component owns its markup and keys. Mirrors what @tanstack/react-virtual does.
 */
import {
  elementScroll,
  measureElement,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type VirtualizerOptions,
} from "@tanstack/virtual-core";
import { useLayoutEffect, useReducer, useRef } from "preact/hooks";

type Options = Pick<
  VirtualizerOptions<HTMLElement, HTMLElement>,
  | "count"
  | "getScrollElement"
  | "estimateSize"
  | "overscan"
  | "getItemKey"
  | "paddingStart"
  | "scrollPaddingStart"
  | "rangeExtractor"
>;

export function useVirtualizer(options: Options): Virtualizer<HTMLElement, HTMLElement> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const resolved: VirtualizerOptions<HTMLElement, HTMLElement> = {
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    measureElement,
    // Rows are drawn on the first render, before the scroll element has been measured.
    initialRect: { width: 1200, height: 800 },
    ...options,
    onChange: () => rerender(undefined),
  };
  const ref = useRef<Virtualizer<HTMLElement, HTMLElement> | null>(null);
  if (!ref.current) ref.current = new Virtualizer(resolved);
  ref.current.setOptions(resolved);
  const instance = ref.current;
  useLayoutEffect(() => instance._didMount(), [instance]);
  useLayoutEffect(() => {
    instance._willUpdate();
  });
  return instance;
}
