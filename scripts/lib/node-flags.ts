// V8 flags for the app's processes. On a machine with much memory V8 sizes the young
// generation large, and loading a package as big as drizzle-orm leaves a service at ~250 MB
// resident before it serves anything. Measured on Node 24.21 (docs/decisions.md):
//   auth service at rest: default 246 MB, --max-semi-space-size=8 156 MB, --optimize-for-size 108 MB
// Services carry little load and favour memory; the gateway, on every request's path, keeps
// V8's speed optimisations and only caps the young generation.
export const SERVICE_NODE_FLAGS = ['--optimize-for-size']
export const GATEWAY_NODE_FLAGS = ['--max-semi-space-size=8']
