import { gestaltClipKey, isBasicGestaltId, notFound } from '@crv/kit'

/**
 * The storage key of a basic gestalt's clip (the speech service voices them at its start); a
 * name that is no gestalt is not found (the contract takes any name, so this is a 404).
 */
export function clipKeyOf(gestaltId: string): string {
  if (!isBasicGestaltId(gestaltId)) throw notFound(`No gestalt called '${gestaltId}'`)
  return gestaltClipKey(gestaltId)
}
