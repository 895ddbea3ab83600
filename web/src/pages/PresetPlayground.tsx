import { useRef, useState } from 'preact/hooks';
import { send } from '../api/client.js';
import { ErrorBox } from '../components/ui.js';

/** Reads an SSE body and calls `onDelta` with each chunk's content text. */
async function readStream(res: Response, onDelta: (t: string) => void): Promise<void> {
  const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (reader === undefined) return;
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let nl: number;
    while ((nl = buf.indexOf('\n')) !== -1) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      try {
        const chunk = JSON.parse(data) as {
          choices?: { delta?: { content?: string | null } }[];
          error?: { message?: string };
        };
        if (chunk.error?.message !== undefined) throw new Error(chunk.error.message);
        const t = chunk.choices?.[0]?.delta?.content;
        if (typeof t === 'string') onDelta(t);
      } catch (e) {
        if (e instanceof SyntaxError) continue;
        throw e;
      }
    }
  }
}

/**
 * Streams one chat call through the preset. Model calls never accept the console session, so the
 * call uses an API key pasted here; it stays in this component's state and is sent only as the
 * Authorization header of the call.
 */
export function PresetPlayground({ slug }: { slug: string }) {
  const [apiKey, setApiKey] = useState('');
  const [message, setMessage] = useState('Say hello in five words.');
  const [output, setOutput] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const run = async (e: Event) => {
    e.preventDefault();
    setOutput('');
    setError(null);
    setBusy(true);
    const ctrl = new AbortController();
    abort.current = ctrl;
    try {
      const res = await send('POST', '/chat/completions', {
        body: { model: `@preset/${slug}`, stream: true, messages: [{ role: 'user', content: message }] },
        headers: { authorization: `Bearer ${apiKey.trim()}`, accept: 'text/event-stream' },
        ignoreUnauthorized: true,
        signal: ctrl.signal,
      });
      await readStream(res, (t) => setOutput((o) => o + t));
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'AbortError')) setError(err);
    } finally {
      setBusy(false);
      abort.current = null;
    }
  };

  return (
    <div class="panel">
      <h2>Playground</h2>
      <p class="muted small">
        Model calls need an API key of this preset's workspace. The key is kept in this page only and is forgotten when
        you leave it.
      </p>
      <form onSubmit={(e) => void run(e)}>
        <div class="row">
          <label>
            API key
            <input
              type="password"
              autocomplete="off"
              value={apiKey}
              onInput={(e) => setApiKey(e.currentTarget.value)}
              required
            />
          </label>
        </div>
        <label>
          Message
          <textarea value={message} onInput={(e) => setMessage(e.currentTarget.value)} required />
        </label>
        <p class="row">
          <button type="submit" class="primary" disabled={busy || apiKey.trim() === ''}>
            Send through @preset/{slug}
          </button>
          <button type="button" disabled={!busy} onClick={() => abort.current?.abort()}>
            Stop
          </button>
        </p>
      </form>
      <ErrorBox error={error} />
      <h3>Answer</h3>
      <pre class="diff" aria-live="polite" data-testid="playground-output">
        {output === '' ? (busy ? '…' : ' ') : output}
      </pre>
    </div>
  );
}
