import { useState } from 'preact/hooks';
import { endpointHealth, type EndpointHealth } from '../api/analytics.js';
import { get } from '../api/client.js';
import { listModels, listProviders } from '../api/resources.js';
import { useLoad } from '../components/hooks.js';
import { ms, num, pct } from '../components/format.js';
import { Badge, LoadStatus, TableWrap } from '../components/ui.js';

/** Price per token (a decimal string) → USD per million tokens. */
function perMillion(v: string | number | undefined): string {
  const n = Number(v);
  if (v === undefined || !Number.isFinite(n)) return '—';
  return `$${(n * 1e6).toLocaleString('en-US', { maximumFractionDigits: 4 })}`;
}

const CIRCUIT_TONE = { closed: 'ok', half_open: 'warn', open: 'bad' } as const;

/** The per-endpoint extras the health endpoint may carry (ZDR and prices). */
type EndpointRow = EndpointHealth & {
  zdr?: boolean;
  pricing?: { prompt: string | number; completion: string | number };
  provider_name?: string;
};

interface CatalogEndpoint {
  tag: string;
  pricing: { prompt: string; completion: string };
}

/**
 * Health rows with the prices the catalog lists for each endpoint (`GET /models/{model}/endpoints`,
 * matched by provider), read once per model shown.
 */
async function withPrices(rows: EndpointRow[], signal: AbortSignal): Promise<EndpointRow[]> {
  const models = [...new Set(rows.filter((r) => r.pricing === undefined).map((r) => r.model))];
  const listed = await Promise.all(
    models.map((m) =>
      get<{ data: { endpoints: CatalogEndpoint[] } }>(`/models/${m}/endpoints`, { signal }).then(
        (r) => [m, r.data.endpoints] as const,
        () => [m, [] as CatalogEndpoint[]] as const,
      ),
    ),
  );
  const byModel = new Map(listed);
  return rows.map((r) => {
    if (r.pricing !== undefined) return r;
    const found = byModel.get(r.model)?.find((e) => e.tag === r.provider);
    return found === undefined ? r : { ...r, pricing: found.pricing };
  });
}

/** Models and providers: the catalog with prices, and each endpoint's live health. */
export function Models() {
  const catalog = useLoad(async (s) => {
    const [models, providers] = await Promise.all([listModels(s), listProviders(s)]);
    return { models, providers };
  }, []);
  const health = useLoad(async (s) => withPrices((await endpointHealth(s)) as EndpointRow[], s), []);
  const [q, setQ] = useState('');
  const needle = q.toLowerCase();
  const models = (catalog.data?.models ?? []).filter(
    (m) => needle === '' || m.id.toLowerCase().includes(needle) || m.name.toLowerCase().includes(needle),
  );
  const endpoints = (health.data ?? []).filter(
    (e) => needle === '' || e.model.toLowerCase().includes(needle) || e.provider.toLowerCase().includes(needle),
  );

  return (
    <section aria-labelledby="models-title">
      <h1 id="models-title">Models and providers</h1>
      <div class="panel row">
        <label>
          Filter
          <input type="search" value={q} placeholder="model or provider" onInput={(e) => setQ(e.currentTarget.value)} />
        </label>
        <span class="spacer" />
        <button type="button" onClick={health.reload}>
          Refresh health
        </button>
      </div>
      <LoadStatus state={catalog} what="the catalog" />
      <h2>Endpoints and their health</h2>
      <LoadStatus state={health} what="endpoint health" />
      <TableWrap label="Endpoints and their health">
        <table>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Provider</th>
              <th scope="col">Upstream model</th>
              <th scope="col">ZDR</th>
              <th scope="col" class="num">
                Input / 1M
              </th>
              <th scope="col" class="num">
                Output / 1M
              </th>
              <th scope="col">Circuit</th>
              <th scope="col" class="num">
                Calls (1 h)
              </th>
              <th scope="col" class="num">
                Error rate (1 h)
              </th>
              <th scope="col" class="num">
                Latency
              </th>
              <th scope="col" class="num">
                Throughput
              </th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((e) => (
              <tr key={e.endpoint_id}>
                <th scope="row" class="mono small">
                  {e.model}
                </th>
                <td>{e.provider_name ?? e.provider}</td>
                <td class="mono small">{e.upstream_model}</td>
                <td>{e.zdr === undefined ? '—' : e.zdr ? <Badge tone="ok">ZDR</Badge> : 'no'}</td>
                <td class="num">{perMillion(e.pricing?.prompt)}</td>
                <td class="num">{perMillion(e.pricing?.completion)}</td>
                <td>
                  <Badge tone={CIRCUIT_TONE[e.circuit]}>{e.circuit.replace('_', ' ')}</Badge>
                  {e.recent_failures > 0 ? (
                    <span class="small muted"> {e.recent_failures} recent failure(s)</span>
                  ) : null}
                </td>
                <td class="num">{num(e.requests_1h)}</td>
                <td class="num">{pct(e.error_rate_1h)}</td>
                <td class="num">{ms(e.latency_ms)}</td>
                <td class="num">{e.throughput_tps === null ? '—' : `${e.throughput_tps.toFixed(1)} tok/s`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <h2>Model catalog</h2>
      <TableWrap label="Model catalog">
        <table>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Name</th>
              <th scope="col" class="num">
                Context
              </th>
              <th scope="col" class="num">
                Input / 1M
              </th>
              <th scope="col" class="num">
                Output / 1M
              </th>
              <th scope="col">Modalities</th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => (
              <tr key={m.id}>
                <th scope="row" class="mono small">
                  {m.id}
                </th>
                <td>{m.name}</td>
                <td class="num">{num(m.context_length)}</td>
                <td class="num">{perMillion(m.pricing.prompt)}</td>
                <td class="num">{perMillion(m.pricing.completion)}</td>
                <td class="small">
                  {m.architecture.input_modalities.join(', ')} → {m.architecture.output_modalities.join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <h2>Providers</h2>
      <ul>
        {(catalog.data?.providers ?? []).map((p) => (
          <li key={p.slug}>
            <strong>{p.name}</strong> <code class="small">{p.slug}</code>
            {p.headquarters === null ? null : <span class="muted small"> · {p.headquarters}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
