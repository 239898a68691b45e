/** The frame of every signed-in page: a skip link, the header with navigation, and the main area. */
import type { ComponentChildren } from "preact";
import { navigate, route } from "../router.ts";
import { can, chooseOrg, me, membership, signOut } from "../session.ts";
import { LogoIcon } from "./icons.tsx";

function NavLink({ href, children }: { href: string; children: ComponentChildren }) {
  const path = route.value.path;
  const current = href === "/" ? path === "/" || path.startsWith("/projects") : path.startsWith(href);
  return (
    <a href={href} aria-current={current ? "page" : undefined}>
      {children}
    </a>
  );
}

export function Shell({ title, children }: { title: string; children: ComponentChildren }) {
  const person = me.value;
  const current = membership.value;
  document.title = `${title} · Parlance`;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          <LogoIcon width="20" height="20" /> Parlance
        </a>
        <nav aria-label="Main">
          <NavLink href="/">Projects</NavLink>
          {can("members") && <NavLink href="/members">Members</NavLink>}
          {can("apiKeys") && <NavLink href="/api-keys">API keys</NavLink>}
        </nav>
        <div class="spacer" />
        {person && person.memberships.length > 1 && (
          <label class="org-select">
            <span class="sr-only">Organization</span>
            <select
              value={current?.orgId}
              onChange={(e) => chooseOrg((e.currentTarget as HTMLSelectElement).value)}
            >
              {person.memberships.map((m) => (
                <option key={m.orgId} value={m.orgId}>
                  {m.orgName}
                </option>
              ))}
            </select>
          </label>
        )}
        {person && (
          <NavLink href="/account">
            {person.name}
            {current && <span class="role"> · {current.role}</span>}
          </NavLink>
        )}
        <button
          type="button"
          class="quiet"
          onClick={async () => {
            await signOut();
            navigate("/signin");
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

/** The frame of the pages a person sees before signing in. */
export function Card({ title, children }: { title: string; children: ComponentChildren }) {
  document.title = `${title} · Parlance`;
  return (
    <main id="main" class="card-page">
      <div class="card">
        <p class="brand">
          <LogoIcon width="20" height="20" /> Parlance
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
