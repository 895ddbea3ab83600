const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The page a browser lands on when single sign-on cannot sign it in: a title, the reason in
 * words, and the way back. No script and no inline style (the console's CSP forbids both).
 */
export function signInRefusedPage(title: string, reason: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)} · Switchyard</title></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(reason)}</p>` +
    '<p><a href="/console/">Back to sign-in</a></p></main></body></html>'
  );
}
