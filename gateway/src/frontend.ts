// The built frontend: its files (pre-compressed, cached by kind), the page shells for the app's
// routes, and the 404 of everything else.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import fastifyStatic from '@fastify/static'
import { errorBody } from '@crv/kit'
import { loadShells } from './shells.ts'

const HASHED_ASSET = /^\/assets\//

async function frontend(app: FastifyInstance, { dist }: { dist: string }) {
  const hasFrontend = existsSync(join(dist, 'index.html'))
  const shells = loadShells(dist)
  if (hasFrontend) {
    await app.register(fastifyStatic, {
      root: dist,
      // Pages, `/` among them, are answered below: with a route shell where there is one.
      index: false,
      // Files are routed once at start; an unknown path never touches the disk.
      wildcard: false,
      // The build writes .br and .gz beside each text asset.
      preCompressed: true,
      setHeaders: (res, path) => {
        const url = path.slice(dist.length).replaceAll('\\', '/')
        if (HASHED_ASSET.test(url))
          res.header('cache-control', 'public, max-age=31536000, immutable')
        // The page, the service worker and the manifest are checked on every load: a new
        // build reaches users at once (the worker then fetches the new hashed assets).
        else if (url.endsWith('.html') || url === '/sw.js' || url.endsWith('.webmanifest'))
          res.header('cache-control', 'no-cache')
        else res.header('cache-control', 'public, max-age=3600')
      },
    })
  } else {
    app.log.warn({ dist }, 'frontend is not built: run `npm run build -w frontend`')
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !/\.[a-z0-9]+$/i.test(path)
    if (wantsPage && hasFrontend) {
      // The SPA renders its own routes, including 'Page Not Found'; a public page comes
      // pre-rendered in the visitor's language.
      if (shells.has(path)) reply.header('vary', 'Accept-Encoding, Accept-Language, Cookie')
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile(shells.fileFor(path, request.headers.cookie, request.headers['accept-language']))
    }
    return reply.code(404).send(errorBody('not_found', `No route for ${request.method} ${path}`))
  })
}

export default fp(frontend, { name: 'gateway-frontend' })
