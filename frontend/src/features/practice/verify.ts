// The reveal's check, done in the browser with Web Crypto: the served image hashes to the
// revealed imageSha256, and SHA-256("targetId|imageSha256|nonce") is the commitment published
// when the session started.

export async function sha256Hex(data: ArrayBuffer | string): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data)
  const digest = await crypto.subtle.digest('SHA-256', bytes)
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

export interface Verification {
  imageSha256: string
  imageMatches: boolean
  commitment: string
  commitmentMatches: boolean
}

export async function verifyReveal(
  reveal: { targetId: string; imageSha256: string; nonce: string },
  published: string,
  imageBytes: ArrayBuffer,
): Promise<Verification> {
  const imageSha256 = await sha256Hex(imageBytes)
  const commitment = await sha256Hex(`${reveal.targetId}|${imageSha256}|${reveal.nonce}`)
  return {
    imageSha256,
    imageMatches: imageSha256 === reveal.imageSha256,
    commitment,
    commitmentMatches: commitment === published,
  }
}
