import i18next from 'i18next'

/**
 * 'MMM dd, yyyy at HH:mm' in the viewer's time zone (spec §9), e.g. 'Mar 05, 2026 at 14:07',
 * in the interface language.
 */
export function formatSubmitted(iso: string, language: string = i18next.language): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  const day = new Intl.DateTimeFormat(language, {
    month: 'short',
    day: '2-digit',
    year: 'numeric',
  }).format(date)
  const time = new Intl.DateTimeFormat(language, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date)
  return i18next.t('admin:format.submittedAt', { date: day, time, lng: language })
}

/** A creator id as the admin pages show it: its first 8 characters (spec §9). */
export const shortId = (id: string | null | undefined) => (id ? id.slice(0, 8) : '—')

export function formatBytes(bytes: number, language: string = i18next.language): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  const digits =
    unit === 0
      ? { maximumFractionDigits: 20 }
      : { minimumFractionDigits: 1, maximumFractionDigits: 1 }
  return `${new Intl.NumberFormat(language, { ...digits, useGrouping: false }).format(value)} ${units[unit]}`
}

/** A number in the interface language ('1,200' in English). */
export const formatNumber = (n: number, language: string = i18next.language) =>
  new Intl.NumberFormat(language).format(n)

/** A stage as the interface names it: 'Stage 1-2' (the API's value) is 'Stufe 1-2' in German. */
export function stageLabel(stage: string): string {
  const match = /^Stage (.+)$/.exec(stage)
  return match ? i18next.t('admin:stage', { range: match[1] }) : stage
}

const statuses = ['system', 'approved', 'pending'] as const

/** A descriptor status ('system', 'approved', 'pending') in the interface language. */
export function statusLabel(status: string): string {
  const known = statuses.find((s) => s === status)
  return known ? i18next.t(`admin:status.${known}`) : status
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
    return gestalt
      ? i18next.t('admin:category.gestaltNamed', {
          name: gestalt.name,
          stage: stageLabel(gestalt.stage),
        })
      : i18next.t('admin:category.gestalt')
  }
  const perception = d.perceptionId != null ? names.perceptions?.get(d.perceptionId) : undefined
  return perception
    ? i18next.t('admin:category.perceptionNamed', {
        name: perception.name,
        stage: stageLabel(perception.stage),
      })
    : i18next.t('admin:category.perception')
}
