// Drawing helpers for the starter pool: a tiny SVG builder with seeded randomness, so every
// scene is the same picture each time the generator runs.

export const W = 800
export const H = 600

export type Rng = () => number

/** mulberry32, seeded from a string (the target's slug). */
export function seeded(text: string): Rng {
  let seed = 2166136261
  for (const ch of text) seed = Math.imul(seed ^ ch.charCodeAt(0), 16777619)
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A coordinate, rounded so the SVG stays small. */
export const n = (v: number): string => String(Math.round(v * 10) / 10)

export type Stop = [offset: number, color: string, opacity?: number]

const stopsSvg = (stops: Stop[]): string =>
  stops
    .map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a ?? 1}"/>`)
    .join('')

// Filters every scene may use: soft blurs, a glow, ragged edges, a surface texture and film grain.
const commonDefs = `
<filter id="b1" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="1"/></filter>
<filter id="b3" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="3"/></filter>
<filter id="b8" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="8"/></filter>
<filter id="b20" x="-80%" y="-80%" width="260%" height="260%"><feGaussianBlur stdDeviation="20"/></filter>
<filter id="glow" x="-100%" y="-100%" width="300%" height="300%"><feGaussianBlur stdDeviation="6" result="g"/><feMerge><feMergeNode in="g"/><feMergeNode in="g"/><feMergeNode in="SourceGraphic"/></feMerge></filter>
<filter id="rough" x="-5%" y="-5%" width="110%" height="110%"><feTurbulence type="fractalNoise" baseFrequency="0.03" numOctaves="3" seed="4"/><feDisplacementMap in="SourceGraphic" scale="14" xChannelSelector="R" yChannelSelector="G" result="d"/><feMerge><feMergeNode in="SourceGraphic"/><feMergeNode in="d"/></feMerge></filter>
<filter id="tex" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.07" numOctaves="4" seed="9" result="t"/><feColorMatrix in="t" type="matrix" values="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0.9 0 0 0 -0.32" result="s"/><feComposite in="s" in2="SourceGraphic" operator="in" result="c"/><feMerge><feMergeNode in="SourceGraphic"/><feMergeNode in="c"/></feMerge></filter>
<filter id="fine" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.25 0.06" numOctaves="2" seed="2" result="t"/><feColorMatrix in="t" type="matrix" values="0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1.2 0 0 0 -0.5" result="s"/><feComposite in="s" in2="SourceGraphic" operator="in" result="c"/><feMerge><feMergeNode in="SourceGraphic"/><feMergeNode in="c"/></feMerge></filter>
<filter id="grain" x="0" y="0" width="100%" height="100%"><feTurbulence type="fractalNoise" baseFrequency="0.85" numOctaves="1" seed="1"/><feColorMatrix type="matrix" values="0.33 0.33 0.33 0 0 0.33 0.33 0.33 0 0 0.33 0.33 0.33 0 0 0 0 0 0 1"/></filter>
<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></radialGradient>`

export class Pic {
  private readonly defs: string[] = []
  private readonly layers: string[] = []
  private next = 0

  readonly rand: Rng

  constructor(rand: Rng) {
    this.rand = rand
  }

  /** A uniform number in [a, b). */
  rnd(a: number, b: number): number {
    return a + (b - a) * this.rand()
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.rand() * items.length)]
    if (item === undefined) throw new Error('pick from an empty list')
    return item
  }

  add(...svg: string[]): this {
    this.layers.push(...svg)
    return this
  }

  private id(prefix: string): string {
    return `${prefix}${this.next++}`
  }

  /** A linear gradient across the shape's bounding box (top to bottom unless told). */
  lin(stops: Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
    const id = this.id('l')
    this.defs.push(
      `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stopsSvg(stops)}</linearGradient>`,
    )
    return `url(#${id})`
  }

  /** A radial gradient in picture coordinates. */
  rad(stops: Stop[], cx: number, cy: number, r: number, sy = 1): string {
    const id = this.id('r')
    const t =
      sy === 1
        ? ''
        : ` gradientTransform="translate(0 ${n(cy)}) scale(1 ${sy}) translate(0 ${n(-cy)})"`
    this.defs.push(
      `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}"${t}>${stopsSvg(stops)}</radialGradient>`,
    )
    return `url(#${id})`
  }

  /** A clip path from SVG content; returns the attribute value. */
  clip(content: string): string {
    const id = this.id('c')
    this.defs.push(`<clipPath id="${id}">${content}</clipPath>`)
    return `url(#${id})`
  }

  svg(grain = 0.06): string {
    return [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`,
      `<defs>${commonDefs}${this.defs.join('')}</defs>`,
      ...this.layers,
      `<rect width="${W}" height="${H}" filter="url(#grain)" opacity="${grain}"/>`,
      `<rect width="${W}" height="${H}" fill="url(#vignette)"/>`,
      '</svg>',
    ].join('\n')
  }
}

export const rect = (
  x: number,
  y: number,
  w: number,
  h: number,
  fill: string,
  extra = '',
): string =>
  `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${fill}" ${extra}/>`

export const path = (d: string, fill: string, extra = ''): string =>
  `<path d="${d}" fill="${fill}" ${extra}/>`

export const circle = (cx: number, cy: number, r: number, fill: string, extra = ''): string =>
  `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${fill}" ${extra}/>`

export const ellipse = (
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  fill: string,
  extra = '',
): string =>
  `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(rx)}" ry="${n(ry)}" fill="${fill}" ${extra}/>`

export const line = (
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  stroke: string,
  width: number,
  extra = '',
): string =>
  `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${stroke}" stroke-width="${n(width)}" ${extra}/>`

export const poly = (points: [number, number][], fill: string, extra = ''): string =>
  `<polygon points="${points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" fill="${fill}" ${extra}/>`

export const g = (content: string[] | string, extra = ''): string =>
  `<g ${extra}>${Array.isArray(content) ? content.join('') : content}</g>`

/** Smooth 1-D value noise in [0, 1], a few octaves. */
export function noise1(rand: Rng, octaves = 4): (x: number) => number {
  const tables = Array.from({ length: octaves }, () => Array.from({ length: 256 }, () => rand()))
  return (x) => {
    let sum = 0
    let amp = 1
    let freq = 1
    let norm = 0
    for (const table of tables) {
      const xf = x * freq
      const i = Math.floor(xf)
      const u = xf - i
      const a = table[((i % 256) + 256) % 256] ?? 0
      const b = table[(((i + 1) % 256) + 256) % 256] ?? 0
      const k = u * u * (3 - 2 * u)
      sum += amp * (a + (b - a) * k)
      norm += amp
      amp /= 2
      freq *= 2
    }
    return sum / norm
  }
}

export interface Peak {
  x: number
  h: number
  w: number
}

/** A skyline of hills or mountains: a closed path from the left edge to the right, down to `bottom`. */
export function ridge(
  p: Pic,
  o: { base: number; amp: number; freq: number; octaves?: number; peaks?: Peak[]; bottom?: number },
): string {
  const noise = noise1(p.rand, o.octaves ?? 4)
  const bottom = o.bottom ?? H + 10
  const pts: string[] = []
  for (let x = -20; x <= W + 20; x += 4) {
    let y = o.base - o.amp * noise(x * o.freq)
    for (const pk of o.peaks ?? []) {
      const d = Math.abs(x - pk.x) / pk.w
      if (d < 1) y -= pk.h * Math.pow(1 - d, 1.4)
    }
    pts.push(`${x} ${n(y)}`)
  }
  return `M-20 ${bottom} L${pts.join(' L')} L${W + 20} ${bottom} Z`
}

/** A soft cloud of overlapping blurred ellipses. */
export function cloud(
  p: Pic,
  x: number,
  y: number,
  s: number,
  color: string,
  opacity = 0.9,
): string {
  const parts: string[] = []
  for (let i = 0; i < 7; i++) {
    parts.push(
      ellipse(
        x + p.rnd(-s, s),
        y + p.rnd(-s * 0.2, s * 0.15),
        s * p.rnd(0.35, 0.7),
        s * p.rnd(0.22, 0.4),
        color,
      ),
    )
  }
  parts.push(ellipse(x, y + s * 0.1, s * 1.2, s * 0.22, color))
  return g(parts, `opacity="${opacity}" filter="url(#b8)"`)
}

export function stars(p: Pic, count: number, yMax: number, color = '#fff', maxR = 1.4): string {
  const parts: string[] = []
  for (let i = 0; i < count; i++) {
    parts.push(
      circle(p.rnd(0, W), p.rnd(0, yMax), p.rnd(0.3, maxR), color, `opacity="${n(p.rnd(0.4, 1))}"`),
    )
  }
  return parts.join('')
}

/** Light strokes on a water surface, denser and longer towards the viewer. */
export function waves(
  p: Pic,
  top: number,
  bottom: number,
  color: string,
  count = 160,
  opacity = 0.5,
): string {
  const parts: string[] = []
  for (let i = 0; i < count; i++) {
    const t = Math.pow(p.rand(), 0.7)
    const y = top + (bottom - top) * t
    const len = 6 + 40 * t * p.rnd(0.5, 1.2)
    const x = p.rnd(-20, W)
    parts.push(
      path(
        `M${n(x)} ${n(y)} q${n(len / 2)} ${n(-2 - 3 * t)} ${n(len)} 0`,
        'none',
        `stroke="${color}" stroke-width="${n(0.8 + 1.8 * t)}" opacity="${n(opacity * p.rnd(0.4, 1))}"`,
      ),
    )
  }
  return parts.join('')
}

export function pine(x: number, y: number, h: number, color: string, snow?: string): string {
  const w = h * 0.42
  const tiers = 4
  const parts = [rect(x - h * 0.03, y - h * 0.15, h * 0.06, h * 0.15, '#3b2a1e')]
  for (let i = 0; i < tiers; i++) {
    const top = y - h + (i * h * 0.75) / tiers
    const bottom = top + h * 0.4
    const hw = (w / 2) * (0.5 + (0.5 * (i + 1)) / tiers)
    parts.push(
      poly(
        [
          [x, top],
          [x + hw, bottom],
          [x - hw, bottom],
        ],
        color,
      ),
    )
    if (snow)
      parts.push(
        poly(
          [
            [x, top],
            [x + hw * 0.5, top + h * 0.2],
            [x - hw * 0.6, top + h * 0.2],
          ],
          snow,
        ),
      )
  }
  return parts.join('')
}

export function roundTree(
  p: Pic,
  x: number,
  y: number,
  h: number,
  crown: string,
  trunk = '#4a3424',
): string {
  const parts = [
    path(
      `M${n(x - h * 0.05)} ${n(y)} L${n(x - h * 0.025)} ${n(y - h * 0.6)} L${n(x + h * 0.025)} ${n(y - h * 0.6)} L${n(x + h * 0.05)} ${n(y)} Z`,
      trunk,
    ),
  ]
  for (let i = 0; i < 9; i++) {
    parts.push(
      circle(
        x + p.rnd(-h * 0.28, h * 0.28),
        y - h * 0.62 + p.rnd(-h * 0.25, h * 0.12),
        h * p.rnd(0.16, 0.26),
        crown,
      ),
    )
  }
  parts.push(ellipse(x + h * 0.08, y - h * 0.55, h * 0.25, h * 0.15, '#000', 'opacity="0.15"'))
  return parts.join('')
}

export function palm(
  x: number,
  y: number,
  h: number,
  lean: number,
  trunk = '#7a5a3a',
  leaf = '#1f7a3a',
): string {
  const tx = x + lean
  const ty = y - h
  const parts = [
    path(
      `M${n(x - 7)} ${n(y)} Q${n(x + lean * 0.2)} ${n(y - h * 0.5)} ${n(tx - 3)} ${n(ty)} L${n(tx + 3)} ${n(ty)} Q${n(x + lean * 0.2 + 8)} ${n(y - h * 0.5)} ${n(x + 7)} ${n(y)} Z`,
      trunk,
    ),
  ]
  const fronds = [-160, -130, -100, -70, -40, -15, 20, 200, 230]
  for (const deg of fronds) {
    const a = (deg * Math.PI) / 180
    const len = h * 0.45
    const ex = tx + Math.cos(a) * len
    const ey = ty + Math.sin(a) * len * 0.6 + len * 0.35
    const mx = tx + Math.cos(a) * len * 0.5
    const my = ty + Math.sin(a) * len * 0.5 - len * 0.05
    parts.push(
      path(
        `M${n(tx)} ${n(ty)} Q${n(mx)} ${n(my - 14)} ${n(ex)} ${n(ey)} Q${n(mx)} ${n(my + 6)} ${n(tx)} ${n(ty)} Z`,
        leaf,
      ),
    )
  }
  parts.push(circle(tx - 4, ty + 6, 5, '#5a3d1e'), circle(tx + 5, ty + 7, 5, '#5a3d1e'))
  return parts.join('')
}

/** Small bird silhouettes ("m" shapes). */
export function bird(x: number, y: number, s: number, color = '#111'): string {
  return path(
    `M${n(x - s)} ${n(y - s * 0.3)} Q${n(x - s * 0.5)} ${n(y - s * 0.6)} ${n(x)} ${n(y)} Q${n(x + s * 0.5)} ${n(y - s * 0.6)} ${n(x + s)} ${n(y - s * 0.3)} Q${n(x + s * 0.5)} ${n(y - s * 0.3)} ${n(x)} ${n(y + s * 0.25)} Q${n(x - s * 0.5)} ${n(y - s * 0.3)} ${n(x - s)} ${n(y - s * 0.3)} Z`,
    color,
  )
}

/** Mirror content below a horizon into the water, blurred and faded. */
export function reflect(p: Pic, content: string, axis: number, opacity = 0.45): string {
  const clip = p.clip(rect(0, axis, W, H - axis, '#000'))
  return g(
    g(content, `transform="translate(0 ${2 * axis}) scale(1 -1)"`),
    `clip-path="${clip}" opacity="${opacity}" filter="url(#b3)"`,
  )
}

export function archWindow(x: number, y: number, w: number, h: number, fill: string): string {
  return path(
    `M${n(x)} ${n(y + h)} L${n(x)} ${n(y + w / 2)} A${n(w / 2)} ${n(w / 2)} 0 0 1 ${n(x + w)} ${n(y + w / 2)} L${n(x + w)} ${n(y + h)} Z`,
    fill,
  )
}

/** The eight gestalt classes of the CRV ideogram; each has a `<class>-gestalt` concept id. */
export const GESTALTS = [
  'biological',
  'energy',
  'land',
  'man-made',
  'motion',
  'natural',
  'space',
  'water',
] as const
export type Gestalt = (typeof GESTALTS)[number]

/** One target of the pool: its manifest fields and how to draw it. */
export interface Scene {
  slug: string
  title: string
  feedback: string
  tags: string[]
  frontloading: string | null
  /** The target's main gestalt; its `<gestalt>-gestalt` concept is one of the tags. */
  gestalt: Gestalt
  draw: (p: Pic) => void
}

/** What a scene file gives for one scene: its slug and how to draw it (the rest is in scenes.json). */
export type Drawing = Pick<Scene, 'slug' | 'draw'>

/** The sky (or whole backdrop) as a top-to-bottom gradient, through `mid` at 55% if given. */
export const sky = (p: Pic, top: string, bottom: string, mid?: string): void => {
  const stops: [number, string][] = mid
    ? [
        [0, top],
        [0.55, mid],
        [1, bottom],
      ]
    : [
        [0, top],
        [1, bottom],
      ]
  p.add(rect(0, 0, W, H, p.lin(stops)))
}

/** A rectangle shaded from `a` at its top to `b` at its bottom. */
export const shadedRect = (
  p: Pic,
  x: number,
  y: number,
  w: number,
  h: number,
  a: string,
  b: string,
): string =>
  rect(
    x,
    y,
    w,
    h,
    p.lin([
      [0, a],
      [1, b],
    ]),
  )

/** A soft halo: a disc fading from `color` at `opacity` in its centre to `outer` transparent at its rim. */
export const halo = (
  p: Pic,
  x: number,
  y: number,
  r: number,
  color: string,
  opacity: number,
  outer = color,
): string =>
  circle(
    x,
    y,
    r,
    p.rad(
      [
        [0, color, opacity],
        [1, outer, 0],
      ],
      x,
      y,
      r,
    ),
  )

/** A disc filled with a radial gradient centred on it. */
export const radialDisc = (p: Pic, x: number, y: number, r: number, stops: Stop[]): string =>
  circle(x, y, r, p.rad(stops, x, y, r))

/** `count` tufts of five leaves, fanned from `from` degrees by `step`, scattered between `yMin` and `yMax`. */
export function leafTufts(
  p: Pic,
  count: number,
  yMin: number,
  yMax: number,
  rx: number,
  ry: number,
  fill: string,
  from: number,
  step: number,
): void {
  for (let i = 0; i < count; i++) {
    const x = p.rnd(0, W)
    const y = p.rnd(yMin, yMax)
    for (let k = 0; k < 5; k++)
      p.add(ellipse(x, y, rx, ry, fill, `transform="rotate(${from + k * step} ${n(x)} ${n(y)})"`))
  }
}

/** A full-picture vertical gradient: the sky, or the whole backdrop. */
export function backdrop(p: Pic, stops: Stop[]): string {
  return rect(0, 0, W, H, p.lin(stops))
}

/** A band of land or water from `top` to the bottom edge, shaded from `a` to `b`. */
export function band(p: Pic, top: number, a: string, b: string, extra = ''): string {
  return rect(
    -10,
    top,
    W + 20,
    H - top + 10,
    p.lin([
      [0, a],
      [1, b],
    ]),
    extra,
  )
}

/** A hill or mountain line filled down to the bottom edge. */
export function hills(
  p: Pic,
  base: number,
  amp: number,
  freq: number,
  fill: string,
  extra = '',
  peaks?: Peak[],
): string {
  return path(ridge(p, { base, amp, freq, ...(peaks ? { peaks } : {}) }), fill, extra)
}

/** A glowing disc: sun, moon or lamp. */
export function glowDisc(p: Pic, x: number, y: number, r: number, color: string, halo = 3): string {
  return [
    circle(
      x,
      y,
      r * halo,
      p.rad(
        [
          [0, color, 0.55],
          [1, color, 0],
        ],
        x,
        y,
        r * halo,
      ),
    ),
    circle(x, y, r, color, 'filter="url(#glow)"'),
  ].join('')
}

/** Tongues of flame rising from a base line, hottest at the root. */
export function flames(p: Pic, x: number, y: number, w: number, h: number, count = 9): string {
  const parts: string[] = []
  for (let i = 0; i < count; i++) {
    const cx = x + p.rnd(-w / 2, w / 2)
    const fh = h * p.rnd(0.45, 1) * (1 - Math.abs(cx - x) / w)
    const fw = w * p.rnd(0.08, 0.16)
    const lean = p.rnd(-fw, fw)
    const d = `M${n(cx - fw)} ${n(y)} Q${n(cx - fw * 0.9)} ${n(y - fh * 0.5)} ${n(cx + lean)} ${n(y - fh)} Q${n(cx + fw * 0.9)} ${n(y - fh * 0.5)} ${n(cx + fw)} ${n(y)} Z`
    parts.push(path(d, p.pick(['#ff7a1a', '#ff9d2e', '#ffb938', '#ff5a14']), 'opacity="0.85"'))
  }
  return g(
    [
      ellipse(x, y - h * 0.3, w * 0.7, h * 0.6, '#ff8a2a', 'opacity="0.35" filter="url(#b20)"'),
      g(parts, 'filter="url(#b1)"'),
      ellipse(x, y - h * 0.12, w * 0.25, h * 0.2, '#fff2b0', 'opacity="0.8" filter="url(#b8)"'),
    ].join(''),
  )
}

/** A billow of smoke or dust: overlapping soft blobs drifting up and sideways. */
export function smoke(
  p: Pic,
  x: number,
  y: number,
  s: number,
  color: string,
  drift = 0,
  opacity = 0.7,
): string {
  const parts: string[] = []
  for (let i = 0; i < 12; i++) {
    const t = i / 11
    parts.push(
      circle(
        x + drift * t + p.rnd(-s * 0.3, s * 0.3),
        y - s * 2.2 * t + p.rnd(-s * 0.2, s * 0.2),
        s * (0.45 + t * 0.7) * p.rnd(0.8, 1.1),
        color,
      ),
    )
  }
  return g(parts, `opacity="${opacity}" filter="url(#b8)"`)
}

/** A standing or walking person in silhouette, feet at (x, y). */
export function person(x: number, y: number, h: number, color: string, stride = 0): string {
  const head = h * 0.12
  const s = stride * h * 0.18
  return [
    circle(x, y - h + head, head, color),
    path(
      `M${n(x - h * 0.11)} ${n(y - h * 0.78)} L${n(x + h * 0.11)} ${n(y - h * 0.78)} L${n(x + h * 0.09)} ${n(y - h * 0.42)} L${n(x - h * 0.09)} ${n(y - h * 0.42)} Z`,
      color,
    ),
    line(
      x - h * 0.05,
      y - h * 0.45,
      x - h * 0.05 - s,
      y,
      color,
      h * 0.075,
      'stroke-linecap="round"',
    ),
    line(
      x + h * 0.05,
      y - h * 0.45,
      x + h * 0.05 + s,
      y,
      color,
      h * 0.075,
      'stroke-linecap="round"',
    ),
    line(
      x - h * 0.1,
      y - h * 0.75,
      x - h * 0.16 + s,
      y - h * 0.45,
      color,
      h * 0.06,
      'stroke-linecap="round"',
    ),
    line(
      x + h * 0.1,
      y - h * 0.75,
      x + h * 0.16 - s,
      y - h * 0.45,
      color,
      h * 0.06,
      'stroke-linecap="round"',
    ),
  ].join('')
}

/** Many small soft dots: snow, spray, sparks or stars of one colour. */
export function specks(
  p: Pic,
  count: number,
  box: [x: number, y: number, w: number, h: number],
  color: string,
  r: [number, number],
  opacity = 0.8,
): string {
  const [x, y, w, h] = box
  const parts: string[] = []
  for (let i = 0; i < count; i++)
    parts.push(
      circle(
        x + p.rnd(0, w),
        y + p.rnd(0, h),
        p.rnd(r[0], r[1]),
        color,
        `opacity="${n(opacity * p.rnd(0.4, 1))}"`,
      ),
    )
  return parts.join('')
}
