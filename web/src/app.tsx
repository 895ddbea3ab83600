import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { setUnauthorizedHandler } from './api/client.js';
import { currentSession, signOut, type SessionInfo } from './api/session.js';
import { useRoute, type Route } from './router.js';
import { SignIn } from './pages/SignIn.js';
import { signedInAs } from './components/signed-in-as.js';
import { Overview } from './pages/Overview.js';
import { Activity } from './pages/Activity.js';
import { Keys } from './pages/Keys.js';
import { Workspaces } from './pages/Workspaces.js';
import { Guardrails } from './pages/Guardrails.js';
import { Presets } from './pages/Presets.js';
import { Models } from './pages/Models.js';
import { AuditLog } from './pages/AuditLog.js';
import { ErrorBox, Loading } from './components/ui.js';

const PAGES: { path: string; title: string; render: (r: Route) => ComponentChildren }[] = [
  { path: '/', title: 'Overview', render: () => <Overview /> },
  { path: '/activity', title: 'Activity', render: (r) => <Activity route={r} /> },
  { path: '/keys', title: 'Keys', render: (r) => <Keys route={r} /> },
  { path: '/workspaces', title: 'Workspaces and members', render: (r) => <Workspaces route={r} /> },
  { path: '/guardrails', title: 'Guardrails', render: (r) => <Guardrails route={r} /> },
  { path: '/presets', title: 'Presets', render: (r) => <Presets route={r} /> },
  { path: '/models', title: 'Models and providers', render: () => <Models /> },
  { path: '/audit-log', title: 'Audit log', render: (r) => <AuditLog route={r} /> },
];

function pageFor(route: Route) {
  const first = route.segments[0];
  return PAGES.find((p) => (first === undefined ? p.path === '/' : p.path === `/${first}`)) ?? null;
}

type State =
  { kind: 'probing' } | { kind: 'signed-out'; notice: string | null } | { kind: 'signed-in'; session: SessionInfo };

export function App() {
  const [state, setState] = useState<State>({ kind: 'probing' });
  const [probeError, setProbeError] = useState<unknown>(null);
  const route = useRoute();
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    setUnauthorizedHandler(() =>
      setState({ kind: 'signed-out', notice: 'Your session has ended. Sign in again to continue.' }),
    );
    currentSession().then(
      (s) => setState(s === null ? { kind: 'signed-out', notice: null } : { kind: 'signed-in', session: s }),
      (e: unknown) => {
        setProbeError(e);
        setState({ kind: 'signed-out', notice: null });
      },
    );
    return () => setUnauthorizedHandler(null);
  }, []);

  const [navOpen, setNavOpen] = useState(false);
  const page = pageFor(route);
  const title =
    state.kind === 'signed-in' ? (page?.title ?? 'Not found') : state.kind === 'probing' ? 'Loading' : 'Sign in';
  useEffect(() => {
    document.title = `${title} · Switchyard`;
  }, [title]);
  useEffect(() => {
    // Move focus to the page's heading region on navigation so screen readers announce the new page;
    // the narrow-screen menu closes once a page is chosen.
    mainRef.current?.focus();
    setNavOpen(false);
  }, [route.segments[0]]);

  if (state.kind === 'probing') return <Loading what="the console" />;
  if (state.kind === 'signed-out')
    return (
      <>
        <ErrorBox error={probeError} />
        <SignIn notice={state.notice} onSignedIn={(session) => setState({ kind: 'signed-in', session })} />
      </>
    );

  const doSignOut = async () => {
    try {
      await signOut();
    } finally {
      setState({ kind: 'signed-out', notice: 'You have signed out.' });
    }
  };

  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), mainRef.current?.focus())}>
        Skip to content
      </a>
      <header>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={navOpen}
          aria-controls="console-nav"
          onClick={() => setNavOpen(!navOpen)}
        >
          Menu
        </button>
        <span class="brand">Switchyard</span>
        <span>
          {signedInAs(state.session)}{' '}
          <button type="button" onClick={() => void doSignOut()}>
            Sign out
          </button>
        </span>
      </header>
      <nav id="console-nav" aria-label="Console" class={navOpen ? 'open' : undefined}>
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <a href={`#${p.path}`} aria-current={page?.path === p.path ? 'page' : undefined}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={mainRef} tabIndex={-1}>
        {page === null ? (
          <>
            <h1>Not found</h1>
            <p>
              No page at <code>{route.path}</code>. <a href="#/">Back to the overview</a>.
            </p>
          </>
        ) : (
          // Keyed by the path: another page (or another item of one) starts with fresh state, so a
          // status or error banner of the page left behind never shows on the next one.
          <div key={route.path}>{page.render(route)}</div>
        )}
      </main>
    </div>
  );
}
