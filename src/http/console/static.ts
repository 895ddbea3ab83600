import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors/index.js';
import { installConsoleHeaders } from '../plugins/security-headers.js';

/** `web/dist` of this package (this file is dist/src/http/console/static.js once built). */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../../web/dist', import.meta.url));

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Switchyard console not built</title></head>' +
  '<body><h1>The console is not built</h1><p>Run <code>npm run build:web</code> (or <code>npm install</code>) ' +
  'and restart the server.</p></body></html>';

const wantsJson = (request: FastifyRequest): boolean => {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
};

/**
 * The web console at `/console/`: files of the built app (`@fastify/static`), `index.html` for
 * any other path so the app's own router handles it, immutable caching for Vite's hashed
 * `assets/`, `no-cache` for the rest, the console's security headers on everything; `GET /`
 * redirects here. Without a build, a 503 that says how to build it.
 */
export async function registerConsole(app: FastifyInstance, dir: string | null): Promise<void> {
  const root = dir ?? DEFAULT_CONSOLE_DIR;
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect('/console/', 302));
  await app.register(
    async (scope) => {
      installConsoleHeaders(scope);
      if (!existsSync(join(root, 'index.html'))) {
        const notBuilt = (request: FastifyRequest, reply: FastifyReply) => {
          if (wantsJson(request))
            throw errors.serviceUnavailable('The console is not built: run `npm run build:web`', { console_dir: root });
          return reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT);
        };
        scope.get('/', { schema: { hide: true } }, notBuilt);
        scope.get('/*', { schema: { hide: true } }, notBuilt);
        return;
      }
      await scope.register(fastifyStatic, {
        root,
        prefix: '/',
        schemaHide: true,
        cacheControl: false,
        dotfiles: 'deny',
        setHeaders: (res, path) => {
          const hashed = path.startsWith(join(root, 'assets'));
          res.setHeader('cache-control', hashed ? IMMUTABLE : 'no-cache');
        },
      });
      // Paths that are not files are the app's routes: they get index.html (assets/ are real files or 404).
      scope.setNotFoundHandler((request, reply) => {
        const path = request.url.split('?')[0] ?? '';
        if ((request.method !== 'GET' && request.method !== 'HEAD') || path.startsWith('/console/assets/'))
          throw errors.routeNotFound(request.method, path);
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      });
    },
    { prefix: '/console' },
  );
}
