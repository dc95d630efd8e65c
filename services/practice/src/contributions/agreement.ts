// How two independent taggers of a contributed target agree, and which tags the target keeps.
//
// Each tagger decides, for every concept of the vocabulary, whether it applies: the universe is
// every concept either could have chosen. Cohen's κ over those yes/no decisions corrects the
// share of concepts on which they agree for the agreement expected by chance from how many each
// chose. With a vocabulary of hundreds of concepts against a dozen tags, the concepts neither
// chose dominate both shares, and κ comes close to the Dice coefficient 2·both / (n₁ + n₂).
//
// The agreed set, the target's tags, is what both chose plus what the moderator confirms of the
// tags only one of them chose: a tag one tagger missed is not wrong, and a moderator sees both
// lists and the picture; a tag neither chose never enters.

export interface TagAgreement {
  /** Cohen's κ, rounded to 4 decimals; 0 when chance alone explains every decision. */
  kappa: number
  universe: number
  both: string[]
  contributorOnly: string[]
  secondOnly: string[]
}

/** Cohen's κ for two raters' yes/no decisions over `universe` items. */
export function cohensKappa(
  counts: { both: number; firstOnly: number; secondOnly: number },
  universe: number,
): number {
  const { both, firstOnly, secondOnly } = counts
  const neither = universe - both - firstOnly - secondOnly
  if (universe <= 0 || neither < 0) throw new RangeError('the tags do not fit in the universe')
  const observed = (both + neither) / universe
  const first = (both + firstOnly) / universe
  const second = (both + secondOnly) / universe
  const expected = first * second + (1 - first) * (1 - second)
  // Both raters said the same of every item (all yes or all no): chance agrees as well as they
  // do, so agreement beyond chance is undefined; taken as complete when they agree.
  if (expected === 1) return observed === 1 ? 1 : 0
  return Math.round(((observed - expected) / (1 - expected)) * 10_000) / 10_000
}

export function tagAgreement(
  contributorTags: readonly string[],
  secondTags: readonly string[],
  universe: number,
): TagAgreement {
  const first = new Set(contributorTags)
  const second = new Set(secondTags)
  const both = [...first].filter((t) => second.has(t)).sort()
  const contributorOnly = [...first].filter((t) => !second.has(t)).sort()
  const secondOnly = [...second].filter((t) => !first.has(t)).sort()
  return {
    kappa: cohensKappa(
      { both: both.length, firstOnly: contributorOnly.length, secondOnly: secondOnly.length },
      universe,
    ),
    universe,
    both,
    contributorOnly,
    secondOnly,
  }
}

export type AgreedTags = { tags: string[] } | { notDisputed: string[] } | { none: true }

/**
 * The target's tags: those both taggers chose, with `confirmed` (each chosen by one tagger
 * only). A confirmed tag neither or both chose is refused (`notDisputed`), as is an empty set.
 */
export function agreedTags(agreement: TagAgreement, confirmed: readonly string[]): AgreedTags {
  const disputed = new Set([...agreement.contributorOnly, ...agreement.secondOnly])
  const notDisputed = confirmed.filter((t) => !disputed.has(t))
  if (notDisputed.length > 0) return { notDisputed }
  const tags = [...new Set([...agreement.both, ...confirmed])].sort()
  return tags.length > 0 ? { tags } : { none: true }
}
