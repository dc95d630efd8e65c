// The licence allowlist of targets (issue [24]): CC0, public domain, the project's own, and
// Creative Commons Attribution or Attribution-ShareAlike with an attribution. Collections write
// licences in many ways ("CC BY-SA 3.0", "cc0", a deed URL); each is read into the one stored
// form, and anything else (NonCommercial, NoDerivatives, "all rights reserved") is refused.
import type { components } from '@crv/contracts'

export type Licence = components['schemas']['PracticeLicence']

const VERSIONS: Record<string, string> = {
  '2': '2.0',
  '2.0': '2.0',
  '2.5': '2.5',
  '3': '3.0',
  '3.0': '3.0',
  '4': '4.0',
  '4.0': '4.0',
}

/** The stored form of a licence as a manifest writes it, or null when it is not allowed. */
export function allowedLicence(written: string): Licence | null {
  const text = written.trim().toLowerCase()
  const deed =
    /^https?:\/\/(?:www\.)?creativecommons\.org\/(licenses\/(by|by-sa)\/([\d.]+)|publicdomain\/(zero|mark)\/1\.0)\/?(?:deed\.[a-z-]+)?$/.exec(
      text,
    )
  if (deed) {
    if (deed[4] === 'zero') return 'CC0-1.0'
    if (deed[4] === 'mark') return 'public-domain'
    return creativeCommons(deed[2] === 'by-sa', deed[3] ?? '')
  }
  const words = text.replace(/[\s_]+/g, '-').replace(/^creative-commons-/, 'cc-')
  if (/^(cc-?0|cc-?zero)(-?1(\.0)?)?$/.test(words)) return 'CC0-1.0'
  if (/^(public-?domain|pd|pdm|public-?domain-mark)(-?1\.0)?$/.test(words)) return 'public-domain'
  if (words === 'own') return 'own'
  const cc = /^cc-?(by|by-sa|attribution|attribution-sharealike)-?([\d.]+)$/.exec(words)
  if (cc)
    return creativeCommons(cc[1] === 'by-sa' || cc[1] === 'attribution-sharealike', cc[2] ?? '')
  return null
}

/** Every allowed licence (the contract's enum; the type checks each). */
export const LICENCES: readonly Licence[] = [
  'CC0-1.0',
  'public-domain',
  'own',
  'CC-BY-2.0',
  'CC-BY-2.5',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'CC-BY-SA-2.0',
  'CC-BY-SA-2.5',
  'CC-BY-SA-3.0',
  'CC-BY-SA-4.0',
]

function creativeCommons(shareAlike: boolean, version: string): Licence | null {
  const named = `CC-BY-${shareAlike ? 'SA-' : ''}${VERSIONS[version] ?? ''}`
  return LICENCES.find((licence) => licence === named) ?? null
}

/** CC BY and CC BY-SA are used only with the author's credit. */
export const needsAttribution = (licence: Licence): boolean => licence.startsWith('CC-BY')
