// s3rver on :9000, objects under /data (the stack's volume). The bucket is made by the init
// container, as with MinIO.
import S3rver from 's3rver'
import AWSAccount from 's3rver/lib/models/account.js'

// s3rver checks request signatures against the key pairs it knows: the app's, as MinIO knows the
// user minio-init makes. Only its built-in S3RVER pair besides.
const { S3_ACCESS_KEY_ID: keyId, S3_SECRET_ACCESS_KEY: secret } = process.env
if (!keyId || !secret) throw new Error('set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY')
AWSAccount.DUMMY_ACCOUNT.createKeyPair(keyId, secret)

// vhostBuckets off: s3rver would take any other host name (the stack's `minio`) for a bucket.
const server = new S3rver({
  address: '0.0.0.0',
  port: 9000,
  directory: '/data',
  silent: false,
  vhostBuckets: false,
})
const { address, port } = await server.run()
console.log(`s3rver listening on ${address}:${port}`)
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  })
}
