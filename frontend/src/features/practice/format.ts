// Numbers and dates in the interface language (Intl), for the practice pages.
import i18next from 'i18next'

/** `x` with exactly `digits` decimals in `language`, or a dash when there is no value. */
export function fixed(language: string, x: number | null, digits = 2): string {
  if (x === null) return '—'
  return new Intl.NumberFormat(language, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(x)
}

/** A plain number (a count, a rank sum) in `language`. */
export const formatNumber = (language: string, x: number) =>
  new Intl.NumberFormat(language).format(x)

/** A moment as numeric date and time, the way `toLocaleString()` shows it, in `language`. */
export const formatDateTime = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).format(new Date(iso))

/** A time of day (hours, minutes, seconds) in `language`. */
export const formatTime = (language: string, iso: string) =>
  new Intl.DateTimeFormat(language, { timeStyle: 'medium' }).format(new Date(iso))

/** The local sidereal time as "HH:MM LST" (or "not recorded" in the interface language). */
export function formatLst(hours: number | null): string {
  if (hours === null) return i18next.t('practice:session.notRecorded')
  const h = Math.floor(hours)
  const m = Math.floor((hours - h) * 60)
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} LST`
}

/** The write-up's sensory columns (the server's keys). */
export const SENSORY_COLUMNS = [
  'colours',
  'textures',
  'temperatures',
  'sounds',
  'smells',
  'tastes',
  'luminance',
  'energetics',
  'dimensionals',
] as const
const MATRIX = ['S', 'D', 'AI', 'EI', 'T', 'I', 'AOL', 'AOLS'] as const
const isOneOf = <T extends string>(list: readonly T[], x: string | undefined): x is T =>
  x !== undefined && (list as readonly string[]).includes(x)

/**
 * A part of the write-up the score read (`stage1.a`, `stage2.textures`, `aestheticImpact`,
 * `stage3.notes`, `stage4.S`…), named as the write-up's own headings name it; an unknown one as
 * it is.
 */
export function scoredPartLabel(part: string): string {
  const [head, tail] = part.split(/[.:/]/)
  const leaf = tail ?? head
  if (head === 'stage1' && tail === 'a') return i18next.t('practice:writeUp.aComponent')
  if (head === 'stage1' && tail === 'b') return i18next.t('practice:writeUp.bComponent')
  if (head === 'stage1') return i18next.t('practice:writeUp.stage1')
  if (head === 'aestheticImpact') return i18next.t('practice:writeUp.aestheticImpact')
  if (head === 'stage3') return i18next.t('practice:writeUp.sketchNotes')
  if (isOneOf(SENSORY_COLUMNS, leaf)) return i18next.t(`practice:writeUp.columns.${leaf}`)
  if (head === 'stage2') return i18next.t('practice:writeUp.stage2')
  if (isOneOf(MATRIX, leaf))
    return i18next.t('practice:reveal.scoredMatrix', {
      column: i18next.t(`practice:writeUp.matrix.${leaf}`),
    })
  return part
}
