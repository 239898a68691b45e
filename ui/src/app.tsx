/**
 * The workspace: one page component per route. Pages that need a session send a signed-out person
 * to sign in, and back afterwards.
 */
import { PageApiKeys } from "./api-keys/page-api-keys.tsx";
import { PageAccount } from "./auth/page-account.tsx";
import { PageInvite } from "./auth/page-invite.tsx";
import { PageReset } from "./auth/page-reset.tsx";
import { PageSetup } from "./auth/page-setup.tsx";
import { PageSignIn } from "./auth/page-sign-in.tsx";
import { Card } from "./base/shell.tsx";
import { PageDashboard } from "./dashboard/page-dashboard.tsx";
import { PageEditor } from "./editor/page-editor.tsx";
import { PageMembers } from "./members/page-members.tsx";
import { PageProject } from "./projects/page-project.tsx";
import { navigate, route } from "./router.ts";
import { me } from "./session.ts";

/** Pages anyone may open; every other page needs a session. */
const PUBLIC: Record<string, () => preact.JSX.Element> = {
  "/signin": PageSignIn,
  "/setup": PageSetup,
  "/invite": PageInvite,
  "/reset": PageReset,
};

function signedInPage(path: string) {
  if (path === "/") return <PageDashboard />;
  if (path === "/account") return <PageAccount />;
  if (path === "/members") return <PageMembers />;
  if (path === "/api-keys") return <PageApiKeys />;
  const project = /^\/projects\/([^/]+)(\/editor)?$/.exec(path);
  if (project?.[1]) {
    const id = decodeURIComponent(project[1]);
    return project[2] ? <PageEditor key={id} projectId={id} /> : <PageProject key={id} projectId={id} />;
  }
  return (
    <Card title="Page not found">
      <p>
        There is nothing at this address. <a href="/">Go to the projects</a>.
      </p>
    </Card>
  );
}

/** Who is signed in is asked once, as the script starts (main.tsx); sign-in asks again. */
export function App() {
  const { path } = route.value;
  const Public = PUBLIC[path];
  if (Public) return <Public />;
  // Project pages need no membership to start: they load while /me answers (a 401 sends to sign-in).
  if (me.value === undefined && path.startsWith("/projects/")) return signedInPage(path);
  if (me.value === undefined)
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  if (me.value === null) {
    const next = path === "/" ? "" : `?next=${encodeURIComponent(path + window.location.search)}`;
    queueMicrotask(() => navigate(`/signin${next}`, { replace: true }));
    return null;
  }
  return signedInPage(path);
}
