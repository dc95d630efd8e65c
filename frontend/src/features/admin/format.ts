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

/** 'Gestalt (Stage 1-2)' or 'Perception (Stage 2-3/4-6)' (spec §2). */
export const categoryLabel = (d: { gestaltId: number | null }) =>
  d.gestaltId !== null ? 'Gestalt (Stage 1-2)' : 'Perception (Stage 2-3/4-6)'
