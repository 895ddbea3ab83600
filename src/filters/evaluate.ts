import type { BuiltinSlug } from './types.js';
import { BUILTIN_FILTERS } from './registry.js';
import { isBuiltinSlug } from './labels.js';

/** One labelled corpus line (test/fixtures/filter-corpus/corpus.jsonl). */
export interface CorpusSample {
  text: string;
  detector: string;
  expected: boolean;
  spans?: string[];
  set?: string;
}

export interface DetectorScore {
  detector: BuiltinSlug;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number;
  recall: number;
  target: number;
  pass: boolean;
}

/** Precision and recall each detector must reach on the corpus (CI enforces these). */
export const EVAL_TARGETS: Readonly<Record<BuiltinSlug, number>> = {
  email: 0.97,
  ssn: 0.97,
  'credit-card': 0.97,
  'ip-address': 0.97,
  phone: 0.97,
  'person-name': 0.85,
  address: 0.85,
  'regex-prompt-injection': 0.85,
};

export function parseCorpus(jsonl: string): CorpusSample[] {
  const out: CorpusSample[] = [];
  for (const line of jsonl.split('\n')) {
    if (line.trim() === '') continue;
    const v: unknown = JSON.parse(line);
    if (typeof v !== 'object' || v === null) throw new Error('corpus line is not an object');
    const o = v as Record<string, unknown>;
    if (typeof o.text !== 'string' || typeof o.detector !== 'string' || typeof o.expected !== 'boolean') {
      throw new Error('corpus line needs text, detector, expected');
    }
    const spans = Array.isArray(o.spans) ? o.spans.filter((s): s is string => typeof s === 'string') : undefined;
    const sample: CorpusSample = { text: o.text, detector: o.detector, expected: o.expected };
    if (spans !== undefined) sample.spans = spans;
    if (typeof o.set === 'string') sample.set = o.set;
    out.push(sample);
  }
  return out;
}

/**
 * A positive counts as found only when every expected span is fully covered by the union
 * of the detector's matches; a negative is a false positive when anything matches.
 */
export function judge(sample: CorpusSample): { predicted: boolean; correct: boolean } {
  if (!isBuiltinSlug(sample.detector)) throw new Error(`unknown detector ${sample.detector}`);
  const matches = BUILTIN_FILTERS[sample.detector].find(sample.text);
  if (!sample.expected) return { predicted: matches.length > 0, correct: matches.length === 0 };
  const covered = (sample.spans ?? []).every((span) => {
    let from = 0;
    for (;;) {
      const at = sample.text.indexOf(span, from);
      if (at < 0) return false;
      const end = at + span.length;
      const sorted = matches.filter((m) => m.end > at && m.start < end).sort((a, b) => a.start - b.start);
      let reach = at;
      for (const m of sorted) if (m.start <= reach) reach = Math.max(reach, m.end);
      if (reach >= end) return true;
      from = at + 1;
    }
  });
  const predicted = matches.length > 0 && covered;
  return { predicted, correct: predicted };
}

export function evaluateCorpus(samples: readonly CorpusSample[]): DetectorScore[] {
  const rows = new Map<BuiltinSlug, { tp: number; fp: number; fn: number; tn: number }>();
  for (const s of samples) {
    if (!isBuiltinSlug(s.detector)) throw new Error(`unknown detector ${s.detector}`);
    const row = rows.get(s.detector) ?? { tp: 0, fp: 0, fn: 0, tn: 0 };
    const { predicted } = judge(s);
    if (s.expected && predicted) row.tp++;
    else if (s.expected) row.fn++;
    else if (predicted) row.fp++;
    else row.tn++;
    rows.set(s.detector, row);
  }
  return [...rows.entries()].map(([detector, r]) => {
    const precision = r.tp + r.fp === 0 ? 1 : r.tp / (r.tp + r.fp);
    const recall = r.tp + r.fn === 0 ? 1 : r.tp / (r.tp + r.fn);
    const target = EVAL_TARGETS[detector];
    return { detector, ...r, precision, recall, target, pass: precision >= target && recall >= target };
  });
}

export function formatScores(rows: readonly DetectorScore[]): string {
  const head = '| detector | pos | neg | TP | FP | FN | precision | recall | target | ok |';
  const sep = '|---|---|---|---|---|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.detector} | ${r.tp + r.fn} | ${r.tn + r.fp} | ${r.tp} | ${r.fp} | ${r.fn} | ${r.precision.toFixed(3)} | ${r.recall.toFixed(3)} | ${r.target.toFixed(2)} | ${r.pass ? 'yes' : 'NO'} |`,
  );
  return [head, sep, ...lines].join('\n');
}
