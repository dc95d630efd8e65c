// The s3rver counterpart of minio-init: make the bucket (again on every start: an existing bucket
// is fine), then list it. Exits non-zero when either fails.
const endpoint = process.env.S3_ENDPOINT ?? 'http://minio:9000'
const bucket = process.env.S3_BUCKET ?? 'crv-training'

const made = await fetch(`${endpoint}/${bucket}`, { method: 'PUT' })
if (!made.ok && made.status !== 409) throw new Error(`create bucket ${bucket}: ${made.status}`)
const listed = await fetch(`${endpoint}/${bucket}?list-type=2`)
if (!listed.ok) throw new Error(`list bucket ${bucket}: ${listed.status}`)
console.log(`bucket ${bucket} ready`)
