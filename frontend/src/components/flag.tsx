import { Box } from '@mui/material'
import { useId, type ReactNode } from 'react'

/**
 * A language's flag as a small SVG. Emoji flags render as two letters or empty boxes on systems
 * without a colour emoji font (most Linux desktops, Windows), so they are drawn here. Decorative:
 * the language's name always stands beside it.
 */
export function Flag({ code }: { code: string }) {
  const id = useId()
  const drawing = drawings[code]?.(id)
  if (!drawing) return null
  return (
    <Box
      component="svg"
      viewBox="0 0 30 20"
      aria-hidden
      focusable="false"
      sx={{
        width: '1.35em',
        height: '0.9em',
        verticalAlign: '-0.1em',
        borderRadius: '2px',
        boxShadow: '0 0 0 0.5px rgba(0,0,0,0.25)',
        flexShrink: 0,
      }}
    >
      {drawing}
    </Box>
  )
}

/** The points of a five-pointed star, its first point towards `angle` (radians from up). */
function star(cx: number, cy: number, r: number, angle = 0): string {
  const points: string[] = []
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? r : r * 0.382
    const a = angle + (i * Math.PI) / 5
    points.push(
      `${(cx + radius * Math.sin(a)).toFixed(3)},${(cy - radius * Math.cos(a)).toFixed(3)}`,
    )
  }
  return points.join(' ')
}

const stripes = (colours: string[], vertical: boolean) =>
  colours.map((fill, i) =>
    vertical ? (
      <rect
        key={fill + i}
        x={(30 / colours.length) * i}
        y={0}
        width={30 / colours.length}
        height={20}
        fill={fill}
      />
    ) : (
      <rect
        key={fill + i}
        x={0}
        y={(20 / colours.length) * i}
        width={30}
        height={20 / colours.length}
        fill={fill}
      />
    ),
  )

const drawings: Record<string, (id: string) => ReactNode> = {
  // The Union Flag: St Andrew's saltire, St Patrick's counterchanged, St George's cross.
  en: (id) => (
    <>
      <clipPath id={`${id}-t`}>
        <path d="M15,10 h15 v10 z v10 h-15 z h-15 v-10 z v-10 h15 z" />
      </clipPath>
      <rect width={30} height={20} fill="#012169" />
      <path d="M0,0 L30,20 M30,0 L0,20" stroke="#fff" strokeWidth={4} />
      <path
        d="M0,0 L30,20 M30,0 L0,20"
        clipPath={`url(#${id}-t)`}
        stroke="#C8102E"
        strokeWidth={2.4}
      />
      <path d="M15,0 v20 M0,10 h30" stroke="#fff" strokeWidth={6} />
      <path d="M15,0 v20 M0,10 h30" stroke="#C8102E" strokeWidth={3.6} />
    </>
  ),
  de: () => stripes(['#000', '#DD0000', '#FFCE00'], false),
  fr: () => stripes(['#0055A4', '#fff', '#EF4135'], true),
  it: () => stripes(['#009246', '#fff', '#CE2B37'], true),
  es: () => (
    <>
      <rect width={30} height={20} fill="#AA151B" />
      <rect y={5} width={30} height={10} fill="#F1BF00" />
    </>
  ),
  ja: () => (
    <>
      <rect width={30} height={20} fill="#fff" />
      <circle cx={15} cy={10} r={6} fill="#BC002D" />
    </>
  ),
  // One large star and four small ones, each pointing at the large one's centre.
  zh: () => (
    <>
      <rect width={30} height={20} fill="#EE1C25" />
      <polygon points={star(5, 5, 3)} fill="#FFDE00" />
      {[
        [10, 2],
        [12, 4],
        [12, 7],
        [10, 9],
      ].map(([x = 0, y = 0]) => (
        <polygon
          key={`${x},${y}`}
          points={star(x, y, 1, Math.atan2(5 - x, y - 5))}
          fill="#FFDE00"
        />
      ))}
    </>
  ),
}
