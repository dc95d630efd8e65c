import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

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
  plugins: [react()],
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
