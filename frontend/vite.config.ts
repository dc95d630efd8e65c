import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { build, defineConfig } from 'vite'
import type { Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { fallbackLanguage, initialNamespaces, uiLanguages } from './src/lib/i18n/languages.ts'
import type * as Prerender from './src/prerender.tsx'

// Brotli and gzip copies of every text asset, written at build time, so the gateway serves
// compressed files without compressing on each request.
function precompress(): Plugin {
  return {
    name: 'crv-precompress',
    apply: 'build',
    enforce: 'post',
    // Last of all: Vite fills in the lists of chunks to preload for each dynamic import (the
    // `__VITE_PRELOAD__` placeholder) in its own generateBundle, and a copy compressed before
    // that would ship the placeholder and fail in the browser.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (!/\.(js|css|html|svg|json)$/.test(file.fileName)) continue
          const source = file.type === 'chunk' ? file.code : file.source
          const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source)
          if (bytes.length < 1024) continue
          const { br, gz } = compressed(bytes)
          this.emitFile({ type: 'asset', fileName: `${file.fileName}.br`, source: br })
          this.emitFile({ type: 'asset', fileName: `${file.fileName}.gz`, source: gz })
        }
      },
    },
  }
}

function compressed(bytes: Buffer) {
  return {
    br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gz: gzipSync(bytes, { level: 9 }),
  }
}

// The public pages a visitor can open first, pre-rendered in every interface language (the
// tachistoscope is an administrator's page: a visitor would only see that it is restricted),
// each with the module its route loads (src/app/router.tsx).
const PRERENDERED: Record<string, string> = {
  '/': 'src/features/ideogram/ideogram-training-page.tsx',
  '/descriptors': 'src/features/descriptors/descriptor-training-page.tsx',
  '/descriptor-training': 'src/features/descriptors/descriptor-training-page.tsx',
  '/sidereal-time': 'src/features/sidereal-time/sidereal-time-page.tsx',
  '/practice': 'src/features/practice/practice-start-page.tsx',
}

type ChunkGraph = Map<string, { fileName: string; imports: string[] }>

/** A page module's chunk and every chunk it imports, directly or not, as the app will ask. */
function chunksOfPage(graph: ChunkGraph, module: string): string[] {
  const page = graph.get(module)
  if (!page) throw new Error(`${module} is no chunk of its own: is it still a route's module?`)
  const byFile = new Map([...graph.values()].map((chunk) => [chunk.fileName, chunk]))
  const files = new Set<string>()
  const visit = (fileName: string) => {
    if (files.has(fileName)) return
    files.add(fileName)
    for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported)
  }
  visit(page.fileName)
  return [...files]
}

/**
 * Route shells: after the client build, the app's own components render each public page's
 * first screen to HTML in Node (src/prerender.tsx), written as `shells/<language>/<page>.html`
 * beside the app. The gateway answers a first visit with the shell in the visitor's language,
 * so a phone paints the page before the JavaScript arrives; the shell is inert (nothing in it
 * can be clicked) until the app has drawn the same page over it.
 */
function routeShells(): Plugin {
  let root = ''
  let outDir = ''
  const graph: ChunkGraph = new Map()
  return {
    name: 'crv-route-shells',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      root = config.root
      outDir = resolve(config.root, config.build.outDir)
    },
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk' || !file.facadeModuleId) continue
        graph.set(file.facadeModuleId, { fileName: file.fileName, imports: file.imports })
      }
    },
    closeBundle: {
      sequential: true,
      order: 'pre',
      async handler() {
        const serverOut = join(root, 'node_modules/.cache/crv-prerender')
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react()],
          // One file with every package inside: Node loads it as it is.
          ssr: { noExternal: true },
          build: {
            ssr: 'src/prerender.tsx',
            outDir: serverOut,
            emptyOutDir: true,
            rolldownOptions: { output: { entryFileNames: 'prerender.mjs' } },
          },
        })
        // Imported once per process by its plain address: its page chunks import it back by that.
        const { renderPage } = (await import(
          pathToFileURL(join(serverOut, 'prerender.mjs')).href
        )) as typeof Prerender
        const template = readFileSync(join(outDir, 'index.html'), 'utf8')
        if (!template.includes('<div id="root"></div>'))
          throw new Error('index.html lacks an empty <div id="root"></div>')
        // The app's entry and the modules it preloads give way to public/shell-boot.js, which
        // loads them once the shell has been painted.
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(template)
        if (!entry?.[1]) throw new Error('index.html lacks the app entry script')
        const preloads = [
          ...template.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g),
        ]
        const appScripts = new RegExp(
          [entry[0], ...preloads.map((m) => m[0])]
            .map((tag) => `${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*`)
            .join('|'),
          'g',
        )
        const attribute = (hrefs: string[]) => JSON.stringify(hrefs).replaceAll('"', '&quot;')
        const bootOnce = (page: string[]) => {
          let booted = false
          return () => {
            if (booted) return ''
            booted = true
            const libraries = attribute(preloads.map((m) => m[1] as string))
            return `<script type="module" src="/shell-boot.js" data-app="${entry[1]}" data-preload="${libraries}" data-page="${attribute(page)}"></script>\n`
          }
        }
        const startModules = new Set([entry[1], ...preloads.map((m) => m[1])])
        // The page's own modules, asked for by shell-boot.js once the libraries are in, instead
        // of by the router one link at a time inside the app's start (40 links for the trainer,
        // a 50 ms stretch of a phone's main thread); the app then finds them asked for. The
        // same for every language.
        const pageModules = new Map(
          Object.entries(PRERENDERED).map(([path, module]) => [
            path,
            chunksOfPage(graph, resolve(root, module))
              .map((fileName) => `/${fileName}`)
              .filter((href) => !startModules.has(href)),
          ]),
        )
        // The catalogues the app loads before it takes a page over (lib/i18n, app/router.tsx):
        // asked for with the page's modules, not once the app has started.
        const catalogue = (language: string, ns: string) =>
          graph.get(resolve(root, `src/locales/${language}/${ns}.json`))?.fileName
        const cataloguesOf = (language: string, namespaces: string[]) =>
          [
            ...(language === fallbackLanguage ? [] : initialNamespaces).map((ns) =>
              catalogue(language, ns),
            ),
            ...namespaces.flatMap((ns) => [
              catalogue(language, ns),
              catalogue(fallbackLanguage, ns),
            ]),
          ]
            .filter((fileName) => fileName !== undefined)
            .map((fileName) => `/${fileName}`)
            .filter((href) => !startModules.has(href))
        for (const { code: language } of uiLanguages) {
          for (const [path, pageOnly] of pageModules) {
            const page = await renderPage(path, language)
            const modules = [...new Set([...pageOnly, ...cataloguesOf(language, page.namespaces)])]
            const { body, styles } = hoistStyles(page.html)
            const html = template
              .replace('</head>', `${styles}</head>`)
              .replace('<html lang="en">', `<html lang="${language}">`)
              .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
              .replace(
                /<meta\s+name="description"\s+content="[^"]*"\s*\/>/,
                `<meta name="description" content="${escapeHtml(page.description)}" />`,
              )
              .replace('<div id="root"></div>', `<div id="root" inert>${body}</div>`)
              .replace(appScripts, bootOnce(modules))
            const file = join(
              outDir,
              'shells',
              language,
              `${path === '/' ? 'index' : path.slice(1)}.html`,
            )
            mkdirSync(dirname(file), { recursive: true })
            const bytes = Buffer.from(html)
            const { br, gz } = compressed(bytes)
            writeFileSync(file, bytes)
            writeFileSync(`${file}.br`, br)
            writeFileSync(`${file}.gz`, gz)
          }
        }
      },
    },
  }
}

/**
 * Emotion writes each component's styles as a <style> element beside it; a page of 80 of them
 * makes the browser work out its styles 80 times while it reads the page. They go to the head
 * as one element (the global ones each as their own, as emotion looks them up), marked the way
 * emotion marks styles it has moved there, so the app's styles know them as already inserted.
 */
function hoistStyles(html: string): { body: string; styles: string } {
  const names = new Set<string>()
  const rules: string[] = []
  const globals = new Map<string, string>()
  const body = html.replace(
    /<style data-emotion="([^"]*)"[^>]*>([\s\S]*?)<\/style>/g,
    (_match, attribute: string, css: string) => {
      const [key, ...ids] = attribute.split(' ')
      if (key === 'css') {
        for (const id of ids) names.add(id)
        rules.push(css)
      } else if (!globals.has(attribute)) globals.set(attribute, css)
      return ''
    },
  )
  const styles =
    [...globals]
      .map(([attribute, css]) => `<style data-emotion="${attribute}" data-s="">${css}</style>`)
      .join('') +
    `<style data-emotion="css ${[...names].join(' ')}" data-s="">${rules.join('')}</style>`
  return { body, styles }
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')

// Only modules the first screen needs may join the vendor chunks; everything a lazy route pulls in
// stays with that route, which keeps the initial JavaScript under the 250 KB gzip budget.
const initialVendorGroups = [
  {
    name: 'react',
    test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|react-redux|@reduxjs|redux|reselect|immer|use-sync-external-store)[\\/]/,
    tags: ['$initial' as const],
    priority: 2,
  },
  {
    name: 'mui',
    test: /node_modules[\\/](@mui|@emotion|@babel[\\/]runtime|stylis|hoist-non-react-statics|react-is|clsx|prop-types|react-transition-group|@popperjs)[\\/]/,
    tags: ['$initial' as const],
    priority: 1,
  },
]

// Installable and usable offline (issue [14]): the app shell precached by a Workbox service
// worker; gestalt clips kept once fetched; the vocabulary, settings and the user's figures
// answered from the network when it is there and from the last answer when it is not. Cached
// API answers that differ per user are kept apart per user (the app's `x-crv-user` header is part
// of the key), so a shared device never shows one user's words to another. A practice session's
// last answer is kept too: its page opens offline, with the write-up's draft (IndexedDB) over it.
const offline = VitePWA({
  registerType: 'autoUpdate',
  // Registered by the app (src/lib/offline), after the first screen is up.
  injectRegister: null,
  manifest: {
    id: '/',
    name: 'CRV Training',
    short_name: 'CRV Training',
    description:
      'Train Controlled Remote Viewing: ideogram gestalts, descriptor vocabulary with spaced repetition, a tachistoscope and sidereal time.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#35608f',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
    // The route shells are for a first visit over the network; offline, the app draws itself.
    globIgnores: ['shells/**'],
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api\//, /^\/auth-callback/],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: true,
    runtimeCaching: [
      {
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin &&
          (url.pathname.startsWith('/api/audio/') || url.pathname.startsWith('/api/storage/o/')),
        handler: 'CacheFirst',
        options: {
          cacheName: 'crv-audio',
          expiration: { maxEntries: 300 },
          cacheableResponse: { statuses: [200] },
        },
      },
      {
        urlPattern: ({ url, sameOrigin }) =>
          sameOrigin &&
          /^\/api\/(descriptors\/bulk|gestalts|perceptions|settings|reviews\/stats|history|practice\/sessions\/[0-9a-f-]{36})$/.test(
            url.pathname,
          ),
        handler: 'NetworkFirst',
        options: {
          cacheName: 'crv-data',
          networkTimeoutSeconds: 6,
          cacheableResponse: { statuses: [200] },
          expiration: { maxEntries: 200 },
          plugins: [
            {
              cacheKeyWillBeUsed: async ({ request }) => {
                const key = new URL(request.url)
                // The category lists and the settings are the same for everyone (openapi.yaml):
                // one copy. Keyed per user, a page that asked before the start-up refresh had
                // answered kept them as the visitor's, and opened offline it asked as the user
                // and found nothing ('Failed to fetch gestalts').
                if (!/^\/api\/(gestalts|perceptions|settings)$/.test(key.pathname))
                  key.searchParams.set('crv-user', request.headers.get('x-crv-user') ?? 'visitor')
                return key.href
              },
            },
          ],
        },
      },
    ],
  },
})

export default defineConfig({
  plugins: [react(), precompress(), routeShells(), offline],
  // `xfwd`: the app sees the browser's address, not this proxy's loopback one, so with `--host`
  // a client on the network cannot read the dev SMS outbox through it (docs/security.md).
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false, xfwd: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false, xfwd: true },
    },
  },
  build: {
    assetsDir: 'assets',
    rolldownOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
        codeSplitting: { groups: initialVendorGroups },
      },
    },
  },
})
