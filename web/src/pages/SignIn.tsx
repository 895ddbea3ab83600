import { useEffect, useRef, useState } from 'preact/hooks';
import { signIn, signInMethods, type SessionInfo } from '../api/session.js';
import { ErrorBox } from '../components/ui.js';

/**
 * Sign-in: with single sign-on when the server has it (a plain link: the server sends the browser
 * to the identity provider), and with a management key unless that was switched off. The key
 * lives in this form's state until it is sent, then is dropped.
 */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (s: SessionInfo) => void; notice: string | null }) {
  const [methods, setMethods] = useState<{ sso: boolean; key_sign_in: boolean } | null>(null);
  useEffect(() => {
    void signInMethods().then(setMethods);
  }, []);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const info = await signIn(key.trim());
      setKey('');
      onSignedIn(info);
    } catch (err) {
      setKey('');
      // The server's message says it all, the wait included ("try again in 15 minutes").
      setError(err);
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin" id="main">
      <div class="panel">
        <h1>Sign in to Switchyard</h1>
        {notice === null ? null : (
          <div class="alert info" role="status">
            {notice}
          </div>
        )}
        <ErrorBox error={error} />
        {methods?.sso === true ? (
          <p>
            <a class="button primary" href="/console/auth/login">
              Sign in with SSO
            </a>
          </p>
        ) : null}
        {methods !== null && !methods.key_sign_in ? null : (
          <form onSubmit={(e) => void submit(e)}>
            <label>
              Management key
              <input
                ref={input}
                type="password"
                name="management-key"
                autocomplete="off"
                spellcheck={false}
                required
                value={key}
                onInput={(e) => setKey(e.currentTarget.value)}
              />
            </label>
            <p class="muted small">
              The key is sent once and exchanged for a session cookie that scripts cannot read. It is not stored in the
              browser.
            </p>
            <button class="primary" type="submit" disabled={busy || key.trim() === ''}>
              {busy ? 'Signing in…' : 'Sign in'}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
