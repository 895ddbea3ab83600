/**
 * Content-filter scanning cost. A set with every builtin (PII redact, injection flag) plus 20
 * custom RE2 patterns, over 1 KB … 1 MB of realistic chat text with some PII sprinkled in.
 * Prints a table (median ms per scan, µs per KB), a per-detector breakdown at 10 KB, checks
 * that growth is roughly linear, times `(a+)+$` over 100 KB of 'a', and writes
 * bench/results/filters-<date>.md.
 *   npx tsc -p tsconfig.json && node dist/bench/filters-bench.js
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BUILTIN_FILTERS,
  BUILTIN_SLUGS,
  compileFilterSet,
  scan,
  type CustomFilterConfig,
} from '../src/filters/index.js';

const PARAGRAPHS = [
  "Hi team, following up on yesterday's incident review. The gateway in eu-west started returning 502s at 14:05 UTC after the config rollout, and the on-call engineer rolled back at 14:32. Root cause was a typo in the upstream pool definition.",
  'Can you rewrite this paragraph so it sounds more formal? "We shipped the new billing page last week and most customers seem happy, but a few reported that the invoice PDF is missing the VAT number."',
  'Summarize the following meeting notes in five bullet points. Attendees: Sarah Johnson, Dr. Patel and Marco Rossi. Decisions: move the launch to March, freeze the API on the 15th, and hire two more support engineers.',
  "Here is the stack trace I get when I run the tests: TypeError: Cannot read properties of undefined (reading 'map') at renderList (src/components/List.tsx:42:17). The list comes from the /api/v1/items endpoint.",
  'Please draft a reply to the customer. They wrote to support@example.com saying their order #A-10293 arrived damaged and they want a refund to the card they used. Their phone number is +44 20 7946 0958.',
  'Translate into German: "Our office is closed on public holidays. For urgent matters, please contact the duty manager." Keep the tone friendly but professional.',
  'Explain the difference between a mutex and a semaphore, with a short example in Go. Mention deadlocks and how channels are usually preferred in idiomatic Go code.',
  'The server at 10.0.4.17 keeps running out of memory. It runs version 4.2.1 of the worker, with 8 GB RAM and swap disabled. Here are the last lines of dmesg before the OOM killer fired.',
  'Write a SQL query that returns the top 10 customers by revenue in 2023, joining orders and customers on customer_id, excluding refunded orders, and ordering by total descending.',
  'I live at 742 Evergreen Terrace, Springfield, IL 62704 and want to change my delivery address for the next three shipments. My SSN is not needed for this, right?',
];

function realisticText(bytes: number): string {
  let s = '';
  let i = 0;
  while (s.length < bytes) {
    s += (PARAGRAPHS[i % PARAGRAPHS.length] ?? '') + '\n\n';
    i += 3; // stride so neighbouring paragraphs differ across sizes
    if (i % PARAGRAPHS.length === 0) i++;
  }
  return s.slice(0, bytes);
}

const CUSTOM: CustomFilterConfig[] = [
  'ACME-\\d{6}',
  'sk-[A-Za-z0-9]{20,}',
  '(?i)project\\s+(?:falcon|osprey|kestrel)',
  'AKIA[0-9A-Z]{16}',
  'ghp_[A-Za-z0-9]{36}',
  '(?i)confidential',
  '\\b[A-Z]{2}\\d{2}[A-Z0-9]{11,30}\\b',
  '(?i)internal use only',
  'xox[baprs]-[A-Za-z0-9-]{10,}',
  '-----BEGIN [A-Z ]*PRIVATE KEY-----',
  '\\bEMP\\d{5}\\b',
  '(?i)password\\s*[:=]\\s*\\S+',
  '\\bINV-\\d{4}-\\d{5}\\b',
  '(?i)do not distribute',
  '\\b\\d{3}-\\d{3}-\\d{3}\\b',
  '(?i)codename\\s+\\w+',
  'eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}',
  '\\bTICKET-\\d+\\b',
  '(?i)salary\\s+of\\s+\\$?\\d[\\d,]*',
  '(a+)+$',
].map((pattern, i) => ({ pattern, action: i % 7 === 6 ? 'block' : 'redact', label: i % 2 === 0 ? `C${i}` : null }));

const SET = compileFilterSet({
  builtins: BUILTIN_SLUGS.map((slug) => ({ slug, action: slug === 'regex-prompt-injection' ? 'flag' : 'redact' })),
  // Blocking customs would stop the scan early; bench the full redact path.
  custom: CUSTOM.map((c) => ({ ...c, action: 'redact' })),
});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function time(fn: () => void, n: number): number {
  fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(samples);
}

const sizes: Array<[string, number, number]> = [
  ['1 KB', 1024, 300],
  ['10 KB', 10 * 1024, 100],
  ['100 KB', 100 * 1024, 20],
  ['1 MB', 1024 * 1024, 5],
];
const lines: string[] = [];
const out = (s: string): void => {
  lines.push(s);
  process.stdout.write(s + '\n');
};

out(`# Content-filter bench ${new Date().toISOString()}`);
out('');
out(
  `Node ${process.version}, one core. Set: ${BUILTIN_SLUGS.length} builtins (PII redact, injection flag) + ${CUSTOM.length} custom RE2 patterns.`,
);
out('');
out('| size | scans | median ms/scan | µs per KB |');
out('|---|---|---|---|');
const perKb: number[] = [];
for (const [label, bytes, n] of sizes) {
  const text = realisticText(bytes);
  const ms = time(() => scan(SET, [{ role: 'user', text }]), n);
  perKb.push((ms * 1000) / (bytes / 1024));
  out(`| ${label} | ${n} | ${ms.toFixed(3)} | ${((ms * 1000) / (bytes / 1024)).toFixed(1)} |`);
}
const growth = (perKb[perKb.length - 1] ?? 0) / (perKb[1] ?? 1);
out('');
out(
  `Growth check: µs/KB at 1 MB is ${growth.toFixed(2)}× that at 10 KB (${growth < 3 ? 'roughly linear' : 'NOT linear'}).`,
);

out('');
out('Per detector at 10 KB (median ms per call):');
out('');
out('| detector | ms |');
out('|---|---|');
const text10 = realisticText(10 * 1024);
for (const slug of BUILTIN_SLUGS) {
  out(`| ${slug} | ${time(() => BUILTIN_FILTERS[slug].find(text10), 100).toFixed(3)} |`);
}
const customOnly = compileFilterSet({ builtins: [], custom: CUSTOM.map((c) => ({ ...c, action: 'redact' })) });
out(`| 20 custom patterns | ${time(() => scan(customOnly, [{ role: 'user', text: text10 }]), 100).toFixed(3)} |`);

const catastrophic = compileFilterSet({ builtins: [], custom: [{ pattern: '(a+)+$', action: 'redact', label: null }] });
const aaa = 'a'.repeat(100 * 1024) + 'b';
const catMs = time(() => scan(catastrophic, [{ role: 'user', text: aaa }]), 10);
out('');
out(
  `Catastrophic pattern \`(a+)+$\` over 100 KB of 'a' (+ 'b', no match): ${catMs.toFixed(3)} ms per scan (RE2, linear).`,
);

const ok10 = ((perKb[1] ?? 0) * 10) / 1000;
out('');
out(`Target: 10 KB under 2 ms → ${ok10.toFixed(3)} ms (${ok10 < 2 ? 'met' : 'NOT met'}).`);

const date = new Date().toISOString().slice(0, 10);
const dir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}filters-${date}.md`, lines.join('\n') + '\n');
process.stdout.write(`\nwrote bench/results/filters-${date}.md\n`);
