// The shell: who is signed in (tRPC `session.me`), the sign-in form otherwise, and the pages under a
// navigation bar. Routes use the history API under /admin (the server answers index.html for them).
import { useEffect, useState } from "react";
import { Link, Route, Router, Switch, useLocation } from "wouter";
import { resetSubscriptions } from "./client.ts";
import { Announcements } from "./pages/Announcements.tsx";
import { Dashboard } from "./pages/Dashboard.tsx";
import { Documents } from "./pages/Documents.tsx";
import { Emoji } from "./pages/Emoji.tsx";
import { Frontends } from "./pages/Frontends.tsx";
import { MediaProxy } from "./pages/MediaProxy.tsx";
import { OAuthApps } from "./pages/OAuthApps.tsx";
import { Statuses } from "./pages/Statuses.tsx";
import { ConfigEditor } from "./pages/Config.tsx";
import { Instances } from "./pages/Instances.tsx";
import { Invites } from "./pages/Invites.tsx";
import { ModerationLog } from "./pages/ModerationLog.tsx";
import { Relays } from "./pages/Relays.tsx";
import { Reports } from "./pages/Reports.tsx";
import { Rules } from "./pages/Rules.tsx";
import { SignIn } from "./pages/SignIn.tsx";
import { UserChats } from "./pages/UserChats.tsx";
import { UserDetail } from "./pages/UserDetail.tsx";
import { Users } from "./pages/Users.tsx";
import { signOut, whoAmI, type Me } from "./session.ts";
import { ErrorBox, Loading } from "./ui.tsx";

/** [path, label, admins only]: moderators do not see what the server would refuse them whatever privileges they hold */
const PAGES = [
  ["/", "Dashboard", false],
  ["/users", "Users", false],
  ["/reports", "Reports", false],
  ["/statuses", "Statuses", false],
  ["/instances", "Instances", false],
  ["/invites", "Invites", false],
  ["/config", "Configuration", true],
  ["/log", "Moderation log", false],
  ["/relays", "Relays", true],
  ["/emoji", "Emoji", false],
  ["/announcements", "Announcements", false],
  ["/media-proxy", "Media proxy", true],
  ["/apps", "OAuth apps", true],
  ["/frontends", "Frontends", true],
  ["/documents", "Documents", true],
  ["/rules", "Rules", true],
] as const;

function Nav({ admin }: { admin: boolean }) {
  const [location] = useLocation();
  return (
    <nav aria-label="Sections" className="sections">
      <ul>
        {PAGES.filter(([, , adminOnly]) => admin || !adminOnly).map(([href, label]) => {
          const current = href === "/" ? location === "/" : location.startsWith(href);
          return (
            <li key={href}>
              <Link href={href} aria-current={current ? "page" : undefined}>
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    whoAmI()
      .then((m) => {
        // a session from elsewhere (the OAuth sign-in page) of an account that is not staff
        if (m && !m.isAdmin && !m.isModerator) setError(`@${m.nickname} is neither an administrator nor a moderator: sign in with a staff account.`);
        setMe(m && (m.isAdmin || m.isModerator) ? m : null);
      })
      .catch((e) => {
        setError(String(e?.message ?? e));
        setMe(null);
      });
  }, []);

  if (me === undefined) return <Loading />;
  if (!me)
    return (
      <main>
        <ErrorBox error={error} />
        <SignIn onSignedIn={(m) => (resetSubscriptions(), setMe(m))} />
      </main>
    );

  return (
    <Router base="/admin">
      <header className="top">
        <span className="brand">Administration</span>
        <Nav admin={me.isAdmin} />
        <span className="who">
          @{me.nickname} ({me.isAdmin ? "admin" : "moderator"})
          <button
            type="button"
            onClick={async () => {
              await signOut();
              resetSubscriptions();
              setMe(null);
            }}
          >
            Sign out
          </button>
        </span>
      </header>
      <main>
        <Switch>
          <Route path="/" component={Dashboard} />
          <Route path="/users" component={Users} />
          <Route path="/users/:nickname/chats">{(p) => <UserChats nickname={decodeURIComponent(p.nickname)} />}</Route>
          <Route path="/users/:nickname">{(p) => <UserDetail nickname={decodeURIComponent(p.nickname)} />}</Route>
          <Route path="/reports" component={Reports} />
          <Route path="/invites" component={Invites} />
          <Route path="/config" component={ConfigEditor} />
          <Route path="/log" component={ModerationLog} />
          <Route path="/relays" component={Relays} />
          <Route path="/statuses" component={Statuses} />
          <Route path="/instances" component={Instances} />
          <Route path="/rules" component={Rules} />
          <Route path="/emoji" component={Emoji} />
          <Route path="/announcements" component={Announcements} />
          <Route path="/media-proxy" component={MediaProxy} />
          <Route path="/apps" component={OAuthApps} />
          <Route path="/frontends" component={Frontends} />
          <Route path="/documents" component={Documents} />
          <Route>
            <h1>Not found</h1>
            <p>
              There is no such page. <Link href="/">Back to the dashboard</Link>
            </p>
          </Route>
        </Switch>
      </main>
    </Router>
  );
}
