import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import type { Plugin } from 'vite'

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

export default defineConfig({
  plugins: [react(), precompress()],
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
