import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogConfigError, parseCatalogText } from '../load-catalog.js';

const MODEL = `models:
  - slug: amazon/nova-pro
    context_length: 300000
    endpoints:
      - { provider: bedrock, upstream_model: amazon.nova-pro-v1:0, pricing: { prompt: 0.0000008, completion: 0.0000032 } }
`;

function parse(providers: string, env: Record<string, string> = {}) {
  return parseCatalogText(`providers:\n${providers}${MODEL}`, { fileName: 'config.yaml', env, defaultCreated: 1 });
}

function issuesOf(providers: string): string[] {
  try {
    parse(providers);
  } catch (error) {
    assert.ok(error instanceof CatalogConfigError);
    return error.lines();
  }
  assert.fail('expected a CatalogConfigError');
}

describe('kind: bedrock in the catalog', () => {
  it('a region alone gives the regional Bedrock Runtime URL; a profile is kept', () => {
    const catalog = parse('  - id: bedrock\n    kind: bedrock\n    region: eu-west-3\n    profile: prod-ai\n');
    const provider = catalog.findProvider('bedrock');
    assert.equal(provider?.baseUrl, 'https://bedrock-runtime.eu-west-3.amazonaws.com');
    assert.deepEqual(provider?.bedrock, { region: 'eu-west-3', profile: 'prod-ai' });
    assert.equal(provider?.available, true, 'no key needed: the AWS default chain signs');
    assert.equal(provider?.getApiKey(), null);
  });

  it('base_url overrides the endpoint; the region then comes from the environment or the URL', () => {
    const vpce = 'https://vpce-0abc.bedrock-runtime.us-west-2.vpce.amazonaws.com';
    const fromEnv = parse(`  - id: bedrock\n    kind: bedrock\n    base_url: ${vpce}\n`, { AWS_REGION: 'us-west-2' });
    assert.equal(fromEnv.findProvider('bedrock')?.baseUrl, vpce);
    assert.equal(fromEnv.findProvider('bedrock')?.bedrock?.region, 'us-west-2');
    const fromUrl = parse(
      '  - id: bedrock\n    kind: bedrock\n    base_url: https://bedrock-runtime.ap-south-1.amazonaws.com\n',
    );
    assert.equal(fromUrl.findProvider('bedrock')?.bedrock?.region, 'ap-south-1');
  });

  it('a Bedrock API key from api_key_env is the credential; unset, the provider is unavailable', () => {
    const text = '  - id: bedrock\n    kind: bedrock\n    region: us-east-1\n    api_key_env: BEDROCK_KEY\n';
    assert.equal(parse(text, { BEDROCK_KEY: 'ABSK-test' }).findProvider('bedrock')?.getApiKey(), 'ABSK-test');
    const unset = parse(text).findProvider('bedrock');
    assert.equal(unset?.available, false);
    assert.match(unset?.unavailableReason ?? '', /BEDROCK_KEY/);
  });

  it('region_env: the region from the environment; unset or not a region, the provider is unavailable', () => {
    const text = '  - id: bedrock\n    kind: bedrock\n    region_env: AWS_REGION\n';
    assert.equal(
      parse(text, { AWS_REGION: 'eu-central-1' }).findProvider('bedrock')?.baseUrl,
      'https://bedrock-runtime.eu-central-1.amazonaws.com',
    );
    assert.match(parse(text).findProvider('bedrock')?.unavailableReason ?? '', /AWS_REGION is not set/);
    assert.match(
      parse(text, { AWS_REGION: 'moon' }).findProvider('bedrock')?.unavailableReason ?? '',
      /AWS_REGION is not an AWS region/,
    );
  });

  it('errors name the file and line: no region nor base_url, a bad region, bedrock keys on another kind', () => {
    assert.deepEqual(issuesOf('  - id: bedrock\n    kind: bedrock\n'), [
      'config.yaml:2: providers[0]: provider of kind "bedrock" needs region (or base_url)',
    ]);
    const lines = issuesOf(
      '  - id: bedrock\n    kind: bedrock\n    region: Virginia\n  - id: oai\n    kind: openai\n    base_url: https://api.openai.com/v1\n    region: us-east-1\n',
    );
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0] ?? '', /^config\.yaml:4: providers\[0\]\.region: .*an AWS region such as us-east-1/);
    assert.match(
      lines[1] ?? '',
      /^config\.yaml:8: providers\[1\]\.region: only providers of kind "bedrock" take this key/,
    );
  });

  it('Bedrock endpoints may serve embeddings models', () => {
    const catalog = parseCatalogText(
      `providers:\n  - { id: bedrock, kind: bedrock, region: us-east-1 }\nmodels:\n  - slug: amazon/titan-embed-text-v2\n    serves: [embeddings]\n    context_length: 8192\n    endpoints:\n      - { provider: bedrock, upstream_model: amazon.titan-embed-text-v2:0, pricing: { prompt: 0.00000002, completion: 0 } }\n`,
      { fileName: 'config.yaml', env: {}, defaultCreated: 1 },
    );
    assert.ok(catalog.models.some((m) => m.slug === 'amazon/titan-embed-text-v2'));
  });
});
