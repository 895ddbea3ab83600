import { errors } from '../../errors/index.js';

/**
 * A preset slug is URL-safe: RFC 3986 unreserved characters only (letters, digits, `-`, `.`,
 * `_`, `~`), 1–100 of them, and not a dot segment (`.`, `..`). Slugs are case-sensitive.
 */
const SLUG = /^[A-Za-z0-9._~-]{1,100}$/;
export const SLUG_RULE = "URL-safe: 1-100 letters, digits, '-', '_', '.' or '~'";

export function isPresetSlug(value: string): boolean {
  return SLUG.test(value) && value !== '.' && value !== '..';
}

/** 400 naming `field` unless `slug` is a valid preset slug. */
export function checkSlug(slug: string, field: string, location?: string): string {
  if (!isPresetSlug(slug)) {
    throw errors.invalidRequest(`${field}: "${slug.slice(0, 120)}" is not a valid preset slug (${SLUG_RULE})`, {
      field,
      ...(location === undefined ? {} : { location }),
    });
  }
  return slug;
}

const MARKER = '@preset/';

/** A preset reference found in a model-call body, with the body's own model once the reference is removed. */
export interface PresetReference {
  slug: string;
  /** The request's model without the preset part (`author/model@preset/x` → `author/model`); undefined for `@preset/x`. */
  model: string | undefined;
}

/**
 * Finds the preset a model-call body references, in one of the three forms:
 * `"model": "@preset/slug"`, `"preset": "slug"`, `"model": "author/model@preset/slug"`.
 * Null when the body references none. Malformed or contradicting references are a 400.
 */
export function presetReference(body: { model?: string; models?: string[]; preset?: string }): PresetReference | null {
  let model = body.model;
  let fromModel: string | null = null;
  if (model !== undefined) {
    const at = model.lastIndexOf(MARKER);
    if (at >= 0) {
      fromModel = checkSlug(model.slice(at + MARKER.length), 'model');
      const rest = model.slice(0, at);
      model = rest === '' ? undefined : rest;
      if (model !== undefined && model.includes(MARKER))
        throw errors.invalidRequest('model: references more than one preset', { field: 'model' });
    }
  }
  body.models?.forEach((m, i) => {
    if (m.includes(MARKER)) {
      throw errors.invalidRequest(`models[${i}]: a preset can be referenced only in model or preset, not in models`, {
        field: `models[${i}]`,
      });
    }
  });
  const fromField = body.preset === undefined ? null : checkSlug(body.preset, 'preset');
  if (fromModel !== null && fromField !== null && fromModel !== fromField) {
    throw errors.invalidRequest(`preset: "${fromField}" contradicts the preset named in model ("${fromModel}")`, {
      field: 'preset',
    });
  }
  const slug = fromField ?? fromModel;
  return slug === null ? null : { slug, model };
}
