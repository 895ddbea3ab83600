import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogConfigError, parseCatalogText } from '../index.js';

const MODELS = `models:
  - slug: google/gemini-2.5-pro
    context_length: 1000000
    endpoints:
      - provider: vertex
        upstream_model: gemini-2.5-pro
        pricing: { prompt: 0.00000125, completion: 0.00001 }
`;

function problems(text: string): string[] {
  try {
    parseCatalogText(text, { fileName: 'google.yaml', env: {} });
  } catch (error) {
    assert.ok(error instanceof CatalogConfigError);
    return error.lines();
  }
  assert.fail('expected a CatalogConfigError');
}

describe('catalog fields of the Google kinds', () => {
  it('a vertex provider: project and location, base_url defaulting to the regional endpoint', () => {
    const catalog = parseCatalogText(
      `providers:\n  - id: vertex\n    kind: vertex\n    project: my-project-123\n    location: us-east5\n${MODELS}`,
      { fileName: 'google.yaml', env: { GOOGLE_APPLICATION_CREDENTIALS: '/secrets/sa.json' } },
    );
    const vertex = catalog.findProvider('vertex');
    assert.equal(vertex?.baseUrl, 'https://us-east5-aiplatform.googleapis.com');
    assert.deepEqual(vertex?.google, {
      project: 'my-project-123',
      location: 'us-east5',
      credentialsFile: '/secrets/sa.json',
    });
    assert.equal(vertex?.available, true);
  });

  it('project_env unset makes the provider unavailable; gemini defaults to Google base URL', () => {
    const catalog = parseCatalogText(
      `providers:\n  - id: vertex\n    kind: vertex\n    project_env: GCP_PROJECT\n    location: global\n  - id: gemini\n    kind: gemini\n    api_key_env: GEMINI_API_KEY\n${MODELS}`,
      { fileName: 'google.yaml', env: { GEMINI_API_KEY: 'k' } },
    );
    assert.equal(catalog.findProvider('vertex')?.available, false);
    assert.match(String(catalog.findProvider('vertex')?.unavailableReason), /GCP_PROJECT is not set/);
    assert.equal(catalog.findProvider('vertex')?.baseUrl, 'https://aiplatform.googleapis.com');
    assert.equal(catalog.findProvider('gemini')?.baseUrl, 'https://generativelanguage.googleapis.com/v1beta');
  });

  it('mistakes are reported as file:line', () => {
    const lines = problems(
      `providers:\n  - id: vertex\n    kind: vertex\n    project: Bad_Project\n  - id: gemini\n    kind: gemini\n    location: us-east5\n${MODELS}`,
    );
    assert.ok(
      lines.some((l) =>
        /^google\.yaml:4: providers\[0\]\.project: "Bad_Project" is not a Google Cloud project id/.test(l),
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^google\.yaml:2: providers\[0\]: missing required key "location"/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) =>
        /^google\.yaml:7: providers\[1\]\.location: location is only for providers of kind "vertex"/.test(l),
      ),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /providers\[1\]: provider of kind "gemini" needs api_key or api_key_env/.test(l)),
      lines.join('\n'),
    );
  });
});
