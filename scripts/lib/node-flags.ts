// V8 flags for the app's processes. On a machine with much memory V8 sizes the young
// generation large, and loading a package as big as drizzle-orm leaves a service at ~250 MB
// resident before it serves anything. Measured on Node 24.21 (docs/decisions.md):
//   auth service at rest: default 246 MB, --max-semi-space-size=8 156 MB, --optimize-for-size 108 MB
// Services carry little load and favour memory; the gateway, on every request's path, keeps
// V8's speed optimisations and only caps the young generation.
export const SERVICE_NODE_FLAGS = ['--optimize-for-size']
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=8']

/**
 * The practice service reads, hashes and writes back write-ups of tens of KB on every autosave,
 * lock and judge: in a young generation as small as --optimize-for-size makes it, those objects
 * were promoted and collected by full collections of 20-40 ms, the p99 of its calls. So it runs
 * with the gateway's flags.
 */
export const PRACTICE_NODE_FLAGS = GATEWAY_NODE_FLAGS

/** The flags of one service's processes. */
export const serviceNodeFlags = (service: string): string[] =>
  service === 'practice' ? PRACTICE_NODE_FLAGS : SERVICE_NODE_FLAGS
