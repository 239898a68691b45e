/**
 * The current URL as a signal, and in-app navigation with the History API. Same-origin links are
 * followed without a reload; the server answers every workspace path with the same page.
 */
import { signal } from "@preact/signals";

export interface Route {
  path: string;
  query: URLSearchParams;
}

const read = (): Route => ({
  path: window.location.pathname,
  query: new URLSearchParams(window.location.search),
});

export const route = signal<Route>(read());

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  route.value = read();
  if (!options.replace) window.scrollTo(0, 0);
}

/** Replaces the query (filters kept in the URL) without a new history entry. */
export function setQuery(query: URLSearchParams): void {
  const search = query.toString();
  navigate(`${window.location.pathname}${search ? `?${search}` : ""}`, { replace: true });
}

window.addEventListener("popstate", () => {
  route.value = read();
});

document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.("a");
  if (!link || link.target || link.hasAttribute("download") || link.origin !== window.location.origin) return;
  if (link.pathname.startsWith("/api/")) return;
  event.preventDefault();
  navigate(link.pathname + link.search + link.hash);
});

/** The one-time token a link carries in its fragment; removed from the address bar once read. */
export function takeFragmentToken(): string {
  const token = decodeURIComponent(window.location.hash.slice(1));
  if (token) history.replaceState(null, "", window.location.pathname + window.location.search);
  return token;
}
