// `npm run verify-receipt -- FILE`: checks a practice session's receipt (the JSON the session
// page downloads) offline, with no server: the commitments against the revealed nonce, the
// target among the candidates, the write-up's hash and the rank. Exits 0 when every check
// passes, 1 when one fails or the file is no receipt, 2 on wrong usage.
import { readFileSync } from 'node:fs'
import { parseReceipt, verifyReceipt } from '@crv/contracts/practice-receipt'

const [file, ...rest] = process.argv.slice(2)
if (!file || rest.length > 0) {
  console.error('usage: npm run verify-receipt -- <receipt.json>')
  process.exit(2)
}

let receipt
try {
  receipt = parseReceipt(JSON.parse(readFileSync(file, 'utf8')))
} catch (error) {
  console.error(`${file}: ${(error as Error).message}`)
  process.exit(1)
}

const result = await verifyReceipt(receipt)
console.log(`Session ${receipt.trn}${receipt.sessionId ? ` (${receipt.sessionId})` : ' (trial)'}`)
console.log(
  `Commitments: ${receipt.commitments.source === 'device' ? `kept on the device at ${receipt.commitments.keptAt ?? 'an unknown time'}` : "the server's copy (none was kept on the device)"}`,
)
for (const check of result.checks)
  console.log(`${check.ok ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`)
console.log(result.ok ? 'All checks passed.' : 'Verification FAILED.')
process.exit(result.ok ? 0 : 1)
