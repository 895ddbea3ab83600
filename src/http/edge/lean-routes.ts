import type { Validator } from '../validation.js';
import type { EdgeReply, EdgeRequest, EdgeRouteOptions } from './edge-exchange.js';

/** A model-call route's handler as the lean edge calls it (the same function Fastify's route calls). */
export type LeanHandler = (request: EdgeRequest, reply: EdgeReply) => Promise<unknown>;

/** A `POST` route the lean edge serves: its full pattern, config, body validator and handler. */
export interface LeanRoute extends EdgeRouteOptions {
  readonly validate: Validator;
  readonly handler: LeanHandler;
}

/**
 * The model-call routes the lean edge serves, by full path. A URL matches as Fastify's router
 * matches these routes: the exact path, or with one trailing slash (`ignoreTrailingSlash`), and
 * any query string. Anything else (another spelling, an encoded character, a `;`) matches
 * nothing here and is left to Fastify, which answers it as before.
 */
export class LeanRoutes {
  private readonly byPath = new Map<string, LeanRoute>();

  add(route: LeanRoute): void {
    this.byPath.set(route.url, route);
  }

  match(url: string): LeanRoute | undefined {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const route = this.byPath.get(path);
    if (route !== undefined || path.length < 2 || !path.endsWith('/')) return route;
    return this.byPath.get(path.slice(0, -1));
  }
}
