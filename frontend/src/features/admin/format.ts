import { format } from 'date-fns'

/** 'MMM dd, yyyy at HH:mm' in the viewer's time zone (spec §9), e.g. 'Mar 05, 2026 at 14:07'. */
export function formatSubmitted(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  return format(date, "MMM dd, yyyy 'at' HH:mm")
}

/** A creator id as the admin pages show it: its first 8 characters (spec §9). */
export const shortId = (id: string | null | undefined) => (id ? id.slice(0, 8) : '—')

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}

type Named = { name: string; stage: string }

/**
 * What a word was submitted for: 'Gestalt: Biological (Stage 1-2)', 'Perception: Colours
 * (Stage 2-3)'; while the names load (or for a category no longer listed), spec §2's
 * 'Gestalt (Stage 1-2)' or 'Perception (Stage 2-3/4-6)'.
 */
export function categoryLabel(
  d: { gestaltId: number | null; perceptionId?: number | null },
  names: { gestalts?: ReadonlyMap<number, Named>; perceptions?: ReadonlyMap<number, Named> } = {},
): string {
  if (d.gestaltId !== null) {
    const gestalt = names.gestalts?.get(d.gestaltId)
    return gestalt ? `Gestalt: ${gestalt.name} (${gestalt.stage})` : 'Gestalt (Stage 1-2)'
  }
  const perception = d.perceptionId != null ? names.perceptions?.get(d.perceptionId) : undefined
  return perception
    ? `Perception: ${perception.name} (${perception.stage})`
    : 'Perception (Stage 2-3/4-6)'
}
