import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { jsonFromSchema } from './json-from-schema.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

function assertValid(schema: Record<string, unknown>, text = 'hello'): unknown {
  const value = jsonFromSchema(schema, text);
  const validate = ajv.compile(schema);
  assert.ok(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`);
  return value;
}

test('jsonFromSchema: scalars, enums, const and bounds', () => {
  assert.equal(assertValid({ type: 'string' }), 'hello');
  assert.equal(assertValid({ type: 'boolean' }), true);
  assert.equal(assertValid({ type: 'null' }), null);
  assert.equal(assertValid({ enum: ['b', 'c'] }), 'b');
  assert.equal(assertValid({ const: 42 }), 42);
  assert.equal(assertValid({ type: 'integer', minimum: 5, maximum: 9 }), 5);
  assertValid({ type: 'integer', exclusiveMinimum: 5 });
  assertValid({ type: 'number', exclusiveMaximum: 0 });
  assertValid({ type: 'number', minimum: 0.25, multipleOf: 0.5 });
  assertValid({ type: 'integer', maximum: -3 });
  assertValid({ type: 'string', minLength: 20, maxLength: 25 });
  assertValid({ type: 'string', maxLength: 2 });
  for (const format of ['date-time', 'date', 'email', 'uri', 'uuid', 'ipv4']) assertValid({ type: 'string', format });
  assertValid({ type: ['null', 'string'] });
});

test('jsonFromSchema: objects, arrays, anyOf, allOf, $ref and recursion', () => {
  const strict = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'age', 'tags', 'kind', 'address'],
    properties: {
      name: { type: 'string' },
      age: { type: 'integer', minimum: 0 },
      tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
      kind: { type: 'string', enum: ['person', 'robot'] },
      address: { anyOf: [{ $ref: '#/$defs/address' }, { type: 'null' }] },
    },
    $defs: {
      address: {
        type: 'object',
        additionalProperties: false,
        required: ['city'],
        properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]+$' } },
      },
    },
  };
  const value = jsonFromSchema(
    { ...strict, $defs: { address: { ...strict.$defs.address, properties: { city: { type: 'string' } } } } },
    'x',
  );
  assert.deepEqual(value, {
    name: 'x (name)',
    age: 0,
    tags: ['x (tags)', 'x (tags)'],
    kind: 'person',
    address: { city: 'x (city)' },
  });
  assertValid({ type: 'array', prefixItems: [{ type: 'integer' }, { type: 'boolean' }], items: false });
  assertValid({
    allOf: [
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      { properties: { b: { type: 'number' } }, required: ['b'] },
    ],
  });
  assertValid({ type: 'array', maxItems: 0 });
  const tree = {
    $ref: '#/definitions/node',
    definitions: {
      node: {
        type: 'object',
        required: ['label', 'children'],
        properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } },
      },
    },
  };
  assertValid(tree);
});

test('jsonFromSchema: schemas as zod (and so the AI SDK and LangChain) write them', () => {
  const schema = z.object({
    title: z.string().min(3),
    rating: z.number().int().min(1).max(5),
    when: z.iso.datetime(),
    authors: z.array(z.object({ name: z.string(), email: z.email().optional() })).min(1),
    status: z.enum(['draft', 'published']),
    note: z.string().nullable(),
    score: z.union([z.number().gt(10), z.string()]),
  });
  const json = z.toJSONSchema(schema) as Record<string, unknown>;
  const value = assertValid(json);
  assert.ok(schema.safeParse(value).success, JSON.stringify(value));
});
