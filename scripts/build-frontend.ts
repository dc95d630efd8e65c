// Builds the frontend; with --if-stale only when its sources changed since the last build.
import { buildFrontend, frontendIsStale } from './lib/frontend.ts'

if (!process.argv.includes('--if-stale') || frontendIsStale()) {
  const started = performance.now()
  buildFrontend()
  console.log(`frontend built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}
