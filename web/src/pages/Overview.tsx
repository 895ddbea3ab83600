import { useMemo, useState } from 'preact/hooks';
import { limits, usage, type GroupBy, type Usage, type UsageRange } from '../api/analytics.js';
import { Chart, type ChartSeries } from '../components/Chart.js';
import { useLoad } from '../components/hooks.js';
import { num, pct, usd } from '../components/format.js';
import { LoadStatus, Meter, TableWrap } from '../components/ui.js';
import { href } from '../router.js';

const GROUPS: { value: GroupBy; label: string }[] = [
  { value: 'none', label: 'Total' },
  { value: 'model', label: 'Model' },
  { value: 'provider', label: 'Provider' },
  { value: 'key', label: 'Key' },
  { value: 'workspace', label: 'Workspace' },
];

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const fmtUsd = (v: number) => usd(v);
const fmtNum = (v: number) => num(Math.round(v));
const fmtPct = (v: number) => pct(v);

function chartsOf(u: Usage): { spend: ChartSeries[]; calls: ChartSeries[]; errorRate: ChartSeries[] } {
  const label = (l: string) => (l === '__other__' ? 'Other' : l);
  return {
    spend: u.series.map((s) => ({ label: label(s.label), values: s.spend_usd })),
    calls: u.series.map((s) => ({ label: label(s.label), values: s.requests })),
    errorRate: u.series.map((s) => ({
      label: label(s.label),
      values: s.requests.map((r, i) => (r === 0 ? null : (s.errors[i] ?? 0) / r)),
    })),
  };
}

/** Overview: spend, calls and error rate over time with a breakdown, and what is closest to its limit. */
export function Overview() {
  const [range, setRange] = useState<UsageRange>('24h');
  const [groupBy, setGroupBy] = useState<GroupBy>('model');
  const u = useLoad((signal) => usage(range, groupBy, signal), [range, groupBy]);
  const l = useLoad((signal) => limits(signal), []);
  const charts = useMemo(() => (u.data === null ? null : chartsOf(u.data)), [u.data]);
  const t = u.data?.totals;

  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <div class="row panel" role="group" aria-label="Chart options">
        <fieldset class="row">
          <legend>Period</legend>
          <label class="inline">
            <input type="radio" name="range" checked={range === '24h'} onChange={() => setRange('24h')} /> Last 24 hours
            (hourly)
          </label>
          <label class="inline">
            <input type="radio" name="range" checked={range === '30d'} onChange={() => setRange('30d')} /> Last 30 days
            (daily)
          </label>
        </fieldset>
        <label>
          Break down by
          <select value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value as GroupBy)}>
            {GROUPS.map((g) => (
              <option key={g.value} value={g.value}>
                {g.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <LoadStatus state={u} what="usage" />
      {t === undefined ? null : (
        <div class="kpis">
          <div class="kpi">
            <div class="muted">Spend</div>
            <div class="value">{usd(t.spend_usd)}</div>
          </div>
          <div class="kpi">
            <div class="muted">Calls</div>
            <div class="value">{num(t.requests)}</div>
          </div>
          <div class="kpi">
            <div class="muted">Errors</div>
            <div class="value">{num(t.errors)}</div>
            {t.refused === undefined || t.refused === 0 ? null : (
              <div class="muted small">{num(t.refused)} refused</div>
            )}
          </div>
          <div class="kpi">
            <div class="muted">Error rate</div>
            <div class="value">{pct(t.error_rate)}</div>
          </div>
        </div>
      )}
      {charts === null || u.data === null ? null : (
        <>
          <h2>Over time</h2>
          <div class="grid2">
            <Chart title="Spend (USD)" buckets={u.data.buckets} series={charts.spend} format={fmtUsd} />
            <Chart title="Calls" buckets={u.data.buckets} series={charts.calls} format={fmtNum} />
          </div>
          <Chart title="Error rate" buckets={u.data.buckets} series={charts.errorRate} format={fmtPct} />
          <h2>Breakdown by {GROUPS.find((g) => g.value === groupBy)?.label.toLowerCase()}</h2>
          <TableWrap label="Breakdown">
            <table>
              <thead>
                <tr>
                  <th scope="col">{GROUPS.find((g) => g.value === groupBy)?.label}</th>
                  <th scope="col" class="num">
                    Spend
                  </th>
                  <th scope="col" class="num">
                    Calls
                  </th>
                  <th scope="col" class="num">
                    Errors
                  </th>
                  <th scope="col" class="num">
                    Error rate
                  </th>
                </tr>
              </thead>
              <tbody>
                {u.data.series.map((s) => {
                  const calls = sum(s.requests);
                  const errors = sum(s.errors);
                  return (
                    <tr key={s.group}>
                      <th scope="row">{s.group === '__other__' ? 'Other' : s.label}</th>
                      <td class="num">{usd(sum(s.spend_usd))}</td>
                      <td class="num">{num(calls)}</td>
                      <td class="num">{num(errors)}</td>
                      <td class="num">{calls === 0 ? '—' : pct(errors / calls)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
      <h2>Closest to their limits</h2>
      <LoadStatus state={l} what="limits" />
      {l.data === null ? null : (
        <div class="grid2">
          <div class="panel">
            <h3>Keys</h3>
            {l.data.keys.length === 0 ? <p class="muted">No key has a limit.</p> : null}
            <table>
              <tbody>
                {l.data.keys.map((k) => (
                  <tr key={k.hash}>
                    <th scope="row">
                      <a href={href('/keys', { workspace: k.workspace_id, hash: k.hash })}>{k.name}</a>
                      <div class="muted small">{k.limit_reset ?? 'lifetime'}</div>
                    </th>
                    <td>
                      <Meter used={k.usage_usd} limit={k.limit_usd} label={`${k.name}: spend against limit`} />
                      <div class="small">
                        {usd(k.usage_usd)} of {usd(k.limit_usd)} ({pct(k.fraction_used)})
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="panel">
            <h3>Guardrail budgets</h3>
            {l.data.guardrails.length === 0 ? <p class="muted">No guardrail budget is in use.</p> : null}
            <table>
              <tbody>
                {l.data.guardrails.map((g) => (
                  <tr key={`${g.guardrail_id}:${g.assignee_id}`}>
                    <th scope="row">
                      <a href={href(`/guardrails/${g.guardrail_id}`)}>{g.guardrail_name}</a>
                      <div class="muted small">
                        {g.assignee_type} {g.assignee_label} · {g.reset_interval ?? 'never resets'}
                      </div>
                    </th>
                    <td>
                      <Meter used={g.usage_usd} limit={g.limit_usd} label={`${g.guardrail_name}: budget used`} />
                      <div class="small">
                        {usd(g.usage_usd)} of {usd(g.limit_usd)} ({pct(g.fraction_used)})
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}
