import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import type { Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

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
          const brotli = brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
          })
          this.emitFile({ type: 'asset', fileName: `${file.fileName}.br`, source: brotli })
          this.emitFile({
            type: 'asset',
            fileName: `${file.fileName}.gz`,
            source: gzipSync(bytes, { level: 9 }),
          })
        }
      },
    },
  }
}

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
// API answers are kept apart per user (the app's `x-crv-user` header is part of the key), so a
// shared device never shows one user's words to another.
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
          /^\/api\/(descriptors\/bulk|gestalts|perceptions|settings|reviews\/stats|history)$/.test(
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
  plugins: [react(), precompress(), offline],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
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
