// A pool's health as the contract says it.
import type { components } from '@crv/contracts'

type Health = components['schemas']['PracticePoolHealth']

/** What pool-health.ts found, shares and κ at full precision. */
export type PoolHealthFacts = Health

/** Shares to four decimals (0.3125), κ to three: more digits would only look precise. */
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits

export function poolHealthView(facts: PoolHealthFacts): Health {
  const { meanKappa } = facts.tagAgreement
  return {
    ...facts,
    classes: facts.classes.map((c) => ({ ...c, share: round(c.share, 4) })),
    tagAgreement: {
      targets: facts.tagAgreement.targets,
      meanKappa: meanKappa === null ? null : round(meanKappa, 3),
    },
  }
}
