// Scenes of the starter pool, part three: energy (fire, light, electricity) and motion (races,
// flight, traffic), many of them events.
import {
  type Drawing,
  H,
  W,
  backdrop,
  band,
  circle,
  cloud,
  ellipse,
  flames,
  g,
  glowDisc,
  halo,
  hills,
  line,
  n,
  path,
  person,
  pine,
  poly,
  rect,
  reflect,
  smoke,
  specks,
  stars,
  waves,
} from './draw.ts'

/** A lattice pylon carrying power lines, base at (x, y). */
function pylon(x: number, y: number, h: number, color: string): string {
  const w = h * 0.28
  const parts = [
    poly(
      [
        [x - w / 2, y],
        [x - w * 0.08, y - h],
        [x + w * 0.08, y - h],
        [x + w / 2, y],
      ],
      'none',
      `stroke="${color}" stroke-width="${n(h * 0.02)}"`,
    ),
  ]
  for (let i = 1; i < 6; i++) {
    const t = i / 6
    const hw = (w / 2) * (1 - t * 0.84)
    parts.push(line(x - hw, y - h * t, x + hw, y - h * (t + 0.16), color, h * 0.012))
    parts.push(line(x + hw, y - h * t, x - hw, y - h * (t + 0.16), color, h * 0.012))
  }
  parts.push(line(x - w * 0.7, y - h * 0.8, x + w * 0.7, y - h * 0.8, color, h * 0.025))
  parts.push(line(x - w * 0.5, y - h * 0.62, x + w * 0.5, y - h * 0.62, color, h * 0.025))
  return parts.join('')
}

/** A sailing boat heeling in the wind, waterline at (x, y). */
function sailBoat(x: number, y: number, s: number, sail: string, lean = 0.15): string {
  return [
    path(
      `M${n(x - s * 0.5)} ${n(y - s * 0.08)} L${n(x + s * 0.55)} ${n(y - s * 0.08)} L${n(x + s * 0.35)} ${n(y + s * 0.06)} L${n(x - s * 0.4)} ${n(y + s * 0.06)} Z`,
      '#f4f4f0',
    ),
    path(
      `M${n(x)} ${n(y - s * 0.12)} L${n(x + s * lean)} ${n(y - s * 1.3)} L${n(x + s * 0.55)} ${n(y - s * 0.16)} Z`,
      sail,
    ),
    path(
      `M${n(x - s * 0.04)} ${n(y - s * 0.14)} L${n(x + s * lean - s * 0.02)} ${n(y - s * 1.15)} L${n(x - s * 0.45)} ${n(y - s * 0.18)} Z`,
      sail,
      'opacity="0.85"',
    ),
  ].join('')
}

/** A low racing car seen from the side, wheels on y. */
function raceCar(x: number, y: number, s: number, body: string): string {
  return [
    path(
      `M${n(x - s)} ${n(y - s * 0.18)} L${n(x - s * 0.9)} ${n(y - s * 0.34)} L${n(x - s * 0.2)} ${n(y - s * 0.36)} L${n(x)} ${n(y - s * 0.52)} L${n(x + s * 0.3)} ${n(y - s * 0.52)} L${n(x + s * 0.45)} ${n(y - s * 0.34)} L${n(x + s)} ${n(y - s * 0.3)} L${n(x + s * 1.05)} ${n(y - s * 0.16)} Z`,
      body,
    ),
    rect(x - s * 1.08, y - s * 0.5, s * 0.1, s * 0.2, body),
    circle(x - s * 0.62, y - s * 0.14, s * 0.17, '#111'),
    circle(x + s * 0.66, y - s * 0.14, s * 0.17, '#111'),
    circle(x - s * 0.62, y - s * 0.14, s * 0.07, '#888'),
    circle(x + s * 0.66, y - s * 0.14, s * 0.07, '#888'),
    ellipse(x + s * 0.12, y - s * 0.44, s * 0.12, s * 0.06, '#222'),
  ].join('')
}

/** A galloping horse with its rider, hooves near y. */
function horseAndRider(x: number, y: number, s: number, coat: string, silk: string): string {
  return [
    ellipse(x, y - s * 0.55, s * 0.42, s * 0.18, coat),
    path(
      `M${n(x + s * 0.3)} ${n(y - s * 0.62)} L${n(x + s * 0.55)} ${n(y - s * 0.95)} L${n(x + s * 0.72)} ${n(y - s * 0.9)} L${n(x + s * 0.5)} ${n(y - s * 0.55)} Z`,
      coat,
    ),
    ellipse(x + s * 0.68, y - s * 0.88, s * 0.12, s * 0.06, coat),
    line(x - s * 0.3, y - s * 0.5, x - s * 0.62, y - s * 0.12, coat, s * 0.07),
    line(x - s * 0.2, y - s * 0.45, x - s * 0.05, y - s * 0.05, coat, s * 0.07),
    line(x + s * 0.25, y - s * 0.45, x + s * 0.6, y - s * 0.2, coat, s * 0.07),
    line(x + s * 0.2, y - s * 0.45, x + s * 0.1, y, coat, s * 0.07),
    path(
      `M${n(x - s * 0.4)} ${n(y - s * 0.62)} Q${n(x - s * 0.7)} ${n(y - s * 0.6)} ${n(x - s * 0.8)} ${n(y - s * 0.35)}`,
      'none',
      `stroke="${coat}" stroke-width="${n(s * 0.06)}"`,
    ),
    ellipse(x + s * 0.05, y - s * 0.85, s * 0.14, s * 0.1, silk),
    circle(x + s * 0.16, y - s * 0.98, s * 0.07, silk),
  ].join('')
}

export const scenesC: Drawing[] = [
  {
    slug: 'forest-fire-at-night',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#140a08'],
          [0.55, '#4f1a0c'],
          [1, '#9a3a16'],
        ]),
      )
      for (let i = 0; i < 6; i++)
        p.add(smoke(p, p.rnd(0, W), 330, p.rnd(50, 90), '#3a2a24', p.rnd(-80, 80), 0.6))
      p.add(hills(p, 380, 50, 0.006, '#2a1008'))
      for (let x = -20; x < W + 40; x += 55) p.add(flames(p, x, 405, 90, p.rnd(90, 170), 7))
      p.add(band(p, 420, '#1a0a06', '#080302'))
      for (let x = 10; x < W; x += p.rnd(30, 60))
        p.add(pine(x, p.rnd(440, 470), p.rnd(90, 150), '#050202'))
      p.add(specks(p, 120, [0, 150, W, 300], '#ffb347', [0.6, 1.8]))
    },
  },
  {
    slug: 'lava-flowing-into-the-sea',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#2c3247'],
          [0.6, '#6a5a6a'],
          [1, '#c07a5a'],
        ]),
      )
      p.add(band(p, 380, '#2a3140', '#0c1016'), waves(p, 385, 600, '#8a96a8', 160, 0.35))
      p.add(
        smoke(p, 330, 360, 110, '#e6e6ea', 140, 0.85),
        smoke(p, 430, 380, 80, '#cfd0d6', 60, 0.7),
      )
      p.add(
        path(
          'M-20 250 L120 270 L260 320 L380 372 L420 400 L300 430 L100 460 L-20 470 Z',
          '#141210',
          'filter="url(#rough)"',
        ),
      )
      for (const [x1, y1, x2, y2, w] of [
        [60, 270, 390, 395, 10],
        [150, 300, 360, 410, 7],
        [20, 330, 300, 425, 6],
      ] as const)
        p.add(
          path(
            `M${x1} ${y1} Q${(x1 + x2) / 2} ${y1 + 80} ${x2} ${y2}`,
            'none',
            `stroke="#ff7a18" stroke-width="${w}" filter="url(#glow)"`,
          ),
        )
      p.add(ellipse(390, 405, 60, 14, '#ffb040', 'opacity="0.8" filter="url(#b8)"'))
    },
  },
  {
    slug: 'solar-farm-in-the-sun',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#3f86d4'],
          [1, '#cfe6f7'],
        ]),
      )
      p.add(glowDisc(p, 640, 90, 34, '#fffbe6', 4))
      p.add(band(p, 300, '#8fb45e', '#4f7a2e'))
      for (let i = 0; i < 9; i++) {
        const t = i / 8
        const y = 310 + Math.pow(t, 1.7) * 270
        const h = 8 + t * 60
        const x0 = 400 - (120 + t * 700)
        const x1 = 400 + (120 + t * 700)
        p.add(
          poly(
            [
              [x0, y],
              [x1, y],
              [x1, y - h],
              [x0, y - h * 0.6],
            ],
            p.lin([
              [0, '#2a4f8f'],
              [1, '#162c55'],
            ]),
          ),
        )
        for (let k = 0; k < 24; k++) {
          const x = x0 + ((x1 - x0) * k) / 24
          p.add(line(x, y, x, y - h * 0.8, '#9fb8d8', 0.5 + t, 'opacity="0.6"'))
        }
        p.add(line(x0, y - h * 0.3, x1, y - h * 0.55, '#9fb8d8', 0.5 + t * 1.5, 'opacity="0.5"'))
      }
    },
  },
  {
    slug: 'candles-in-the-dark',
    draw: (p) => {
      p.add(rect(0, 0, W, H, '#070504'))
      p.add(halo(p, 400, 330, 330, '#6a3a12', 0.7, '#000'))
      p.add(band(p, 470, '#2a1a10', '#0c0704'))
      for (const [x, h, w] of [
        [300, 230, 62],
        [420, 300, 70],
        [530, 170, 56],
      ] as const) {
        const top = 480 - h
        p.add(
          rect(
            x - w / 2,
            top,
            w,
            h,
            p.lin(
              [
                [0, '#8a7a66'],
                [0.45, '#f4ead8'],
                [1, '#9a8a74'],
              ],
              0,
              0,
              1,
              0,
            ),
          ),
          ellipse(x, top, w / 2, 7, '#fff6e2'),
          line(x, top, x, top - 12, '#222', 2),
          path(
            `M${x} ${top - 50} Q${x + 9} ${top - 24} ${x + 4} ${top - 10} Q${x} ${top - 4} ${x - 4} ${top - 10} Q${x - 9} ${top - 24} ${x} ${top - 50} Z`,
            '#ffd35a',
            'filter="url(#glow)"',
          ),
          ellipse(x, top - 16, 3, 7, '#fffbe8'),
          ellipse(
            x,
            top + 480 - top + 2,
            w * 0.9,
            10,
            '#ffcf80',
            'opacity="0.2" filter="url(#b8)"',
          ),
        )
      }
    },
  },
  {
    slug: 'sparks-from-a-welder',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#3a4654'],
          [1, '#5a6470'],
        ]),
      )
      for (let x = 40; x < W; x += 160) p.add(rect(x, 0, 18, 420, '#2a323c'))
      p.add(
        rect(0, 420, W, 180, '#2a2e34'),
        rect(80, 380, 640, 40, '#4a4e54'),
        rect(80, 380, 640, 6, '#8a8e94'),
      )
      p.add(halo(p, 470, 384, 120, '#9ad0ff', 0.6))
      for (let i = 0; i < 90; i++) {
        const a = p.rnd(-Math.PI * 0.95, -Math.PI * 0.05)
        const len = p.rnd(40, 260)
        const x2 = 470 + Math.cos(a) * len
        const y2 = 384 + Math.sin(a) * len * 0.6 + (len * len) / 400
        p.add(
          path(
            `M470 384 Q${n(470 + Math.cos(a) * len * 0.6)} ${n(384 + Math.sin(a) * len * 0.7)} ${n(x2)} ${n(y2)}`,
            'none',
            `stroke="${p.pick(['#ffb030', '#ffd060', '#ff8a20'])}" stroke-width="${n(p.rnd(0.8, 2.2))}" opacity="${n(p.rnd(0.5, 1))}"`,
          ),
        )
      }
      p.add(circle(470, 384, 12, '#ffffff', 'filter="url(#glow)"'))
      p.add(
        g(
          [
            person(560, 500, 230, '#0a0b0d'),
            rect(520, 262, 60, 50, '#0a0b0d'),
            line(540, 330, 478, 380, '#0a0b0d', 14, 'stroke-linecap="round"'),
          ].join(''),
        ),
      )
    },
  },
  {
    slug: 'power-lines-at-sunset',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#3a2350'],
          [0.5, '#c2503a'],
          [0.8, '#f4a040'],
          [1, '#f8c060'],
        ]),
      )
      p.add(glowDisc(p, 250, 470, 40, '#fff0b0', 3))
      p.add(band(p, 480, '#241410', '#0c0604'))
      const towers = [
        [640, 520, 380],
        [380, 486, 190],
        [235, 482, 110],
        [150, 481, 66],
        [95, 480, 40],
      ] as const
      for (const [x, y, h] of towers) p.add(pylon(x, y, h, '#0b0708'))
      for (const k of [0.8, 0.62]) {
        for (const side of [-1, 1]) {
          const pts = towers.map(
            ([x, y, h]) => [x + side * h * 0.28 * (k === 0.8 ? 0.7 : 0.5), y - h * k] as const,
          )
          for (let i = 0; i < pts.length - 1; i++) {
            const [ax, ay] = pts[i] ?? [0, 0]
            const [bx, by] = pts[i + 1] ?? [0, 0]
            p.add(
              path(
                `M${n(ax)} ${n(ay)} Q${n((ax + bx) / 2)} ${n((ay + by) / 2 + (ax - bx) * 0.08)} ${n(bx)} ${n(by)}`,
                'none',
                'stroke="#0b0708" stroke-width="1.4"',
              ),
            )
          }
          const [fx, fy] = pts[0] ?? [0, 0]
          p.add(
            path(
              `M${n(fx)} ${n(fy)} Q${n(fx + 120)} ${n(fy + 40)} ${n(W + 20)} ${n(fy + 10)}`,
              'none',
              'stroke="#0b0708" stroke-width="2"',
            ),
          )
        }
      }
    },
  },
  {
    slug: 'bonfire-festival',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#070b1c'],
          [0.7, '#1a1a34'],
          [1, '#3a2018'],
        ]),
      )
      p.add(stars(p, 70, 200))
      p.add(band(p, 440, '#2a160c', '#0a0604'))
      p.add(halo(p, 400, 380, 260, '#ff8a2a', 0.55))
      p.add(smoke(p, 400, 200, 60, '#4a3a3a', 60, 0.4))
      p.add(
        poly(
          [
            [330, 450],
            [400, 250],
            [470, 450],
          ],
          '#3a1e0e',
        ),
      )
      p.add(flames(p, 400, 450, 230, 300, 16))
      p.add(specks(p, 160, [250, 40, 300, 300], '#ffc060', [0.7, 2]))
      for (let x = 10; x < W; x += p.rnd(22, 40)) {
        if (x > 300 && x < 500) continue
        p.add(person(x, p.rnd(560, 600), p.rnd(110, 150), '#050303'))
      }
      for (let x = 300; x < 500; x += 30) p.add(person(x, 610, p.rnd(120, 160), '#050303'))
    },
  },
  {
    slug: 'sky-lanterns-over-a-lake',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#061030'],
          [0.6, '#1b2a5c'],
          [1, '#3a3a6a'],
        ]),
      )
      p.add(hills(p, 380, 20, 0.01, '#0c1228'))
      const lanterns: string[] = []
      for (let i = 0; i < 170; i++) {
        const y = Math.pow(p.rand(), 1.3) * 370
        const s = 2 + (y / 370) * 9
        const x = p.rnd(0, W)
        lanterns.push(
          rect(x - s / 2, y - s * 0.7, s, s * 1.4, '#ffb24a', 'rx="2" filter="url(#glow)"'),
        )
      }
      p.add(lanterns.join(''))
      p.add(rect(0, 390, W, 210, '#0a1230'))
      p.add(reflect(p, lanterns.join(''), 390, 0.5))
      p.add(rect(0, 530, W, 70, '#04060e'))
      for (let x = 20; x < W; x += p.rnd(30, 60)) p.add(person(x, 560, p.rnd(70, 95), '#04060e'))
    },
  },
  {
    slug: 'northern-lights-over-a-forest',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#020712'],
          [1, '#0c2030'],
        ]),
      )
      p.add(stars(p, 200, 420))
      for (let k = 0; k < 4; k++) {
        const base = 120 + k * 60
        const pts: string[] = []
        for (let x = -40; x <= W + 40; x += 20)
          pts.push(`${x} ${n(base + Math.sin(x / 90 + k) * 40)}`)
        p.add(
          path(
            `M${pts.join(' L')} L${W + 40} ${base + 200} L-40 ${base + 200} Z`,
            p.lin([
              [0, '#7dffb0', 0],
              [0.3, '#5cf2a0', 0.55],
              [1, '#1a6a6a', 0],
            ]),
            'filter="url(#b8)"',
          ),
        )
      }
      p.add(band(p, 470, '#c8d6e6', '#8a9cb4'))
      for (let x = -10; x < W + 20; x += p.rnd(18, 34))
        p.add(pine(x, p.rnd(470, 490), p.rnd(80, 150), '#03070a'))
    },
  },
  {
    slug: 'blast-in-a-quarry',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#9ab4cc'],
          [1, '#dce6ee'],
        ]),
      )
      for (let i = 0; i < 5; i++) {
        const y = 200 + i * 70
        p.add(
          path(
            `M-20 ${y} L${200 + i * 30} ${y - 10} L${600 - i * 20} ${y + 5} L${W + 20} ${y - 8} L${W + 20} ${y + 70} L-20 ${y + 70} Z`,
            p.pick(['#9a8e80', '#a89c8c', '#8c8072']),
            'filter="url(#tex)"',
          ),
          rect(-20, y + 50, W + 40, 20, '#6e6458', 'opacity="0.5"'),
        )
      }
      p.add(
        smoke(p, 400, 330, 120, '#c8b8a0', 0, 0.9),
        smoke(p, 330, 350, 80, '#b0a08a', -120, 0.8),
      )
      p.add(smoke(p, 470, 350, 90, '#d8cab4', 130, 0.8))
      for (let i = 0; i < 60; i++) {
        const a = p.rnd(-Math.PI, 0)
        const r = p.rnd(60, 260)
        p.add(circle(400 + Math.cos(a) * r, 300 + Math.sin(a) * r * 0.8, p.rnd(2, 7), '#4a4038'))
      }
      p.add(ellipse(400, 330, 70, 40, '#ffb060', 'opacity="0.6" filter="url(#b20)"'))
    },
  },
  {
    slug: 'molten-steel-in-a-foundry',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#2a2622'],
          [1, '#4a3a30'],
        ]),
      )
      for (let x = 0; x < W; x += 120) p.add(rect(x, 0, 14, 420, '#1a1614'))
      p.add(rect(560, 80, 200, 120, '#8a98a4', 'opacity="0.5"'))
      p.add(rect(0, 60, W, 16, '#1e1a16'))
      p.add(halo(p, 430, 470, 300, '#ff7a1a', 0.5))
      p.add(
        g(
          [
            path('M180 150 L420 190 L390 330 L200 300 Z', '#2c2420'),
            path('M180 150 L420 190 L410 215 L185 178 Z', '#4a3a30'),
            line(300, 40, 300, 170, '#1e1a16', 10),
          ].join(''),
          'transform="rotate(12 300 240)"',
        ),
      )
      p.add(
        path(
          'M410 230 Q440 300 436 480 L452 480 Q462 300 424 228 Z',
          '#fff2b0',
          'filter="url(#glow)"',
        ),
      )
      p.add(
        rect(330, 480, 220, 60, '#2a2220'),
        ellipse(440, 482, 100, 12, '#ffb030', 'filter="url(#glow)"'),
      )
      p.add(specks(p, 140, [300, 360, 300, 150], '#ffc040', [0.8, 2.2]))
      p.add(band(p, 540, '#6a4020', '#3a2414'))
    },
  },
  {
    slug: 'steaming-volcanic-vents',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#8e969c'],
          [1, '#c8ccc8'],
        ]),
      )
      p.add(hills(p, 300, 90, 0.006, '#6a625c', 'filter="url(#b1)"'))
      p.add(band(p, 330, '#a89a78', '#6e604a', 'filter="url(#tex)"'))
      for (let i = 0; i < 16; i++)
        p.add(
          ellipse(
            p.rnd(0, W),
            p.rnd(360, 590),
            p.rnd(30, 90),
            p.rnd(6, 16),
            p.pick(['#e0c440', '#d8b830', '#c8a830']),
            'opacity="0.75" filter="url(#b3)"',
          ),
        )
      for (const [x, y, s] of [
        [200, 420, 40],
        [430, 380, 55],
        [620, 460, 45],
        [90, 520, 30],
      ] as const) {
        p.add(smoke(p, x, y, s, '#f4f4f2', p.rnd(-40, 60), 0.85))
        p.add(ellipse(x, y + 6, s * 0.6, s * 0.15, '#3a3028'))
      }
    },
  },
  {
    slug: 'tesla-coil-discharge',
    draw: (p) => {
      p.add(rect(0, 0, W, H, '#06040c'))
      p.add(halo(p, 400, 170, 280, '#8a5cff', 0.45))
      p.add(
        rect(
          370,
          200,
          60,
          300,
          p.lin(
            [
              [0, '#6a4a2a'],
              [0.5, '#c89a5a'],
              [1, '#6a4a2a'],
            ],
            0,
            0,
            1,
            0,
          ),
        ),
      )
      for (let y = 205; y < 500; y += 5) p.add(line(370, y, 430, y, '#a07038', 1, 'opacity="0.6"'))
      p.add(ellipse(400, 190, 80, 24, '#b8bcc4'), ellipse(400, 184, 72, 14, '#e8eaf0'))
      for (let k = 0; k < 9; k++) {
        let x = 400 + p.rnd(-60, 60)
        let y = 185
        const a = p.rnd(0, Math.PI * 2)
        const pts = [`${n(x)} ${n(y)}`]
        for (let i = 0; i < 10; i++) {
          x += Math.cos(a) * 22 + p.rnd(-18, 18)
          y += Math.sin(a) * 16 + p.rnd(-14, 14)
          pts.push(`${n(x)} ${n(y)}`)
        }
        p.add(
          path(
            `M${pts.join(' L')}`,
            'none',
            'stroke="#e6d8ff" stroke-width="2" filter="url(#glow)"',
          ),
        )
      }
      p.add(rect(320, 500, 160, 30, '#1a1620'))
      for (let x = 10; x < W; x += p.rnd(28, 46)) p.add(person(x, 640, p.rnd(150, 200), '#020104'))
    },
  },
  {
    slug: 'cooling-towers-of-a-power-station',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#8fa8c0'],
          [1, '#e0e6ea'],
        ]),
      )
      p.add(band(p, 470, '#7a8a50', '#4a5a2a'))
      for (const [x, w, h] of [
        [200, 150, 300],
        [420, 170, 330],
        [640, 140, 270],
      ] as const) {
        const top = 470 - h
        p.add(smoke(p, x, top - 10, w * 0.45, '#f6f6f6', 80, 0.9))
        p.add(
          path(
            `M${x - w / 2} 470 Q${x - w * 0.28} ${top + h * 0.45} ${x - w * 0.34} ${top} L${x + w * 0.34} ${top} Q${x + w * 0.28} ${top + h * 0.45} ${x + w / 2} 470 Z`,
            p.lin(
              [
                [0, '#8a8c8a'],
                [0.4, '#d4d6d2'],
                [1, '#7a7c7a'],
              ],
              0,
              0,
              1,
              0,
            ),
            'filter="url(#tex)"',
          ),
          ellipse(x, top, w * 0.34, 6, '#5a5c5a'),
        )
      }
      p.add(rect(0, 462, W, 10, '#5a6a3a'))
    },
  },
  {
    slug: 'race-cars-on-a-track',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#7ab0e0'],
          [1, '#d0e4f2'],
        ]),
      )
      p.add(rect(0, 120, W, 170, '#505866'))
      p.add(specks(p, 900, [0, 130, W, 150], '#e8d0b0', [1.5, 3], 0.9))
      p.add(specks(p, 500, [0, 130, W, 150], '#c04040', [1.5, 3], 0.7))
      p.add(rect(0, 280, W, 30, '#e8e8e8'), rect(0, 300, W, 300, '#5e6066', 'filter="url(#tex)"'))
      for (let x = -40; x < W; x += 80)
        p.add(rect(x, 300, 40, 14, '#d83030'), rect(x + 40, 300, 40, 14, '#f0f0f0'))
      for (const [y, c, x] of [
        [420, '#d42a2a', 520],
        [480, '#2a5ad4', 330],
        [560, '#f0c020', 600],
      ] as const) {
        for (let i = 0; i < 8; i++)
          p.add(
            line(
              x - 120 - i * 30,
              y - 20 - i * 3,
              x - 320 - i * 30,
              y - 20 - i * 3,
              '#d8d8d8',
              2,
              'opacity="0.5"',
            ),
          )
        p.add(g(raceCar(x, y, 95, c), 'filter="url(#b1)"'))
      }
    },
  },
  {
    slug: 'sailing-regatta',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#9cc6ea'],
          [1, '#e8f2fa'],
        ]),
      )
      p.add(hills(p, 250, 20, 0.01, '#8a9aa8', 'opacity="0.6"'))
      p.add(band(p, 255, '#2c5a8c', '#0c2a4e'), waves(p, 260, 600, '#cfe2f2', 220, 0.5))
      for (const [x, y, s, c] of [
        [120, 300, 70, '#fafafa'],
        [260, 310, 90, '#f4f4f0'],
        [600, 300, 60, '#fafafa'],
        [700, 320, 80, '#fafafa'],
        [440, 420, 200, '#f8f8f4'],
        [180, 480, 150, '#fafafa'],
      ] as const)
        p.add(sailBoat(x, y, s, c))
      p.add(
        path('M470 380 Q560 300 520 200 Q600 260 610 370 Z', '#e0282a'),
        specks(p, 40, [360, 420, 260, 30], '#ffffff', [1, 3]),
      )
    },
  },
  {
    slug: 'marathon-in-a-city-street',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#a8c8e8'],
          [1, '#e8eef4'],
        ]),
      )
      for (const side of [0, 1]) {
        for (let i = 0; i < 5; i++) {
          const w = 120 - i * 18
          const x = side ? W - 10 - i * 70 - w : 10 + i * 70
          const top = 60 + i * 40
          p.add(rect(x, top, w, 330 - top, p.pick(['#b8a890', '#c8c0b0', '#9aa0a8', '#a89080'])))
          for (let y = top + 15; y < 320; y += 24)
            for (let wx = x + 8; wx < x + w - 12; wx += 18) p.add(rect(wx, y, 9, 12, '#5a6878'))
        }
      }
      p.add(
        poly(
          [
            [300, 330],
            [500, 330],
            [W + 100, H],
            [-100, H],
          ],
          '#6a6a6e',
        ),
      )
      for (let i = 0; i < 70; i++) {
        const t = Math.pow(p.rand(), 0.8)
        const y = 340 + t * 280
        const h = 30 + t * 170
        const x = 400 + p.rnd(-1, 1) * (110 + t * 380)
        const c = p.pick(['#e83a3a', '#2a8ae8', '#f0c020', '#30b060', '#ffffff', '#e070c0'])
        p.add(
          g(
            person(x, y, h, '#3a2a24', p.rnd(-1, 1)) +
              rect(x - h * 0.1, y - h * 0.78, h * 0.2, h * 0.3, c),
          ),
        )
      }
    },
  },
  {
    slug: 'ski-jumper-in-flight',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#1c5ab4'],
          [1, '#a8cef0'],
        ]),
      )
      p.add(path('M-20 330 Q300 360 520 520 L820 620 L-20 620 Z', '#eef4fa'))
      p.add(path('M-20 330 L140 300 L150 318 L-20 350 Z', '#c8d2dc'))
      for (let x = 560; x < W + 30; x += 28)
        p.add(pine(x, p.rnd(560, 600), p.rnd(70, 110), '#1a3a2a', '#ffffff'))
      for (let x = -10; x < 200; x += 30)
        p.add(pine(x, p.rnd(380, 420), p.rnd(50, 80), '#1a3a2a', '#ffffff'))
      const x = 430
      const y = 190
      p.add(
        g(
          [
            line(x - 70, y + 40, x + 70, y - 40, '#d82020', 7, 'stroke-linecap="round"'),
            line(x - 60, y + 62, x + 78, y - 12, '#d82020', 7, 'stroke-linecap="round"'),
            path(
              `M${x - 40} ${y + 40} L${x + 40} ${y - 6} L${x + 52} ${y + 8} L${x - 30} ${y + 54} Z`,
              '#1a1a40',
            ),
            circle(x + 52, y - 12, 12, '#f0f0f0'),
          ].join(''),
          'transform="translate(430 190) scale(2.2) rotate(-8) translate(-430 -190)"',
        ),
      )
      p.add(specks(p, 40, [400, 520, 200, 60], '#304050', [1.5, 2.5]))
    },
  },
  {
    slug: 'horse-race',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#8ab8e0'],
          [1, '#dceaf4'],
        ]),
      )
      p.add(rect(0, 200, W, 80, '#3a6a3a'), specks(p, 400, [0, 210, W, 60], '#d0c0a0', [1, 2]))
      p.add(band(p, 270, '#5a9a3a', '#2e6a20'))
      for (let i = 0; i < 14; i++) {
        const x = i * 62
        p.add(line(x, 300, x, 330, '#ffffff', 4))
      }
      p.add(line(0, 302, W, 302, '#ffffff', 6))
      for (const [x, y, s, silk] of [
        [180, 400, 150, '#e02a2a'],
        [360, 430, 160, '#f0d020'],
        [560, 470, 175, '#2a60e0'],
        [300, 540, 190, '#30a050'],
      ] as const) {
        p.add(smoke(p, x - s * 0.6, y - 10, s * 0.12, '#a89060', -40, 0.5))
        p.add(horseAndRider(x, y, s, p.pick(['#5a3018', '#3a2010', '#7a4a24']), silk))
      }
    },
  },
  {
    slug: 'roller-coaster-loop',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#2a78d8'],
          [1, '#bfe0fa'],
        ]),
      )
      p.add(cloud(p, 150, 110, 80, '#ffffff', 0.9), cloud(p, 650, 80, 60, '#ffffff', 0.8))
      p.add(band(p, 520, '#6aa04a', '#3a7030'))
      const track =
        'M-20 500 L80 500 Q160 500 200 150 Q230 80 270 160 Q320 300 380 470 Q420 540 520 470 Q640 380 600 260 Q560 160 480 230 Q420 300 520 360 Q640 420 820 420'
      for (let x = 60; x < W; x += 40)
        p.add(line(x, 600, x, 200 + ((x * 37) % 220), '#c8c8c8', 3, 'opacity="0.7"'))
      p.add(
        path(track, 'none', 'stroke="#8a1010" stroke-width="14"'),
        path(track, 'none', 'stroke="#e02a2a" stroke-width="8"'),
      )
      for (let i = 0; i < 5; i++) {
        const x = 318 + i * 18
        const y = 290 + i * 44
        p.add(
          rect(
            x - 14,
            y - 14,
            28,
            22,
            p.pick(['#f0c020', '#2a60e0']),
            `transform="rotate(68 ${x} ${y})"`,
          ),
        )
      }
    },
  },
  {
    slug: 'cycle-race-on-a-mountain-road',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#5a9ad8'],
          [1, '#d4e6f4'],
        ]),
      )
      p.add(hills(p, 220, 120, 0.005, '#8a8c96', '', [{ x: 500, h: 120, w: 200 }]))
      p.add(cloud(p, 300, 90, 70, '#ffffff', 0.85))
      p.add(hills(p, 320, 60, 0.006, '#5a8a3a'))
      p.add(band(p, 400, '#4a7a2e', '#2e5a1c'))
      const road =
        'M820 610 Q300 560 200 520 Q120 480 360 450 Q620 420 520 390 Q380 360 300 340 Q260 325 420 300'
      p.add(path(road, 'none', 'stroke="#5a5a5e" stroke-width="26" stroke-linejoin="round"'))
      p.add(path(road, 'none', 'stroke="#f0f0f0" stroke-width="1.5" stroke-dasharray="10 12"'))
      for (let i = 0; i < 9; i++) {
        const x = 560 + i * 34
        const y = 585 + i * 3
        const c = p.pick(['#e83030', '#f0c020', '#2a8ae8', '#30b060', '#f070b0'])
        p.add(
          circle(x - 9, y, 8, 'none', 'stroke="#111" stroke-width="2"'),
          circle(x + 9, y, 8, 'none', 'stroke="#111" stroke-width="2"'),
        )
        p.add(
          path(
            `M${x - 9} ${y} L${x} ${y - 14} L${x + 9} ${y}`,
            'none',
            'stroke="#333" stroke-width="2"',
          ),
        )
        p.add(ellipse(x + 2, y - 20, 9, 6, c), circle(x + 10, y - 26, 4, '#222'))
      }
    },
  },
  {
    slug: 'speedboat-and-its-wake',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#0c3a6a'],
          [1, '#06264a'],
        ]),
      )
      p.add(waves(p, 0, 600, '#3a6a9a', 260, 0.4))
      const wake = 'M560 170 L-60 560 L-60 660 L80 660 Z'
      p.add(path(wake, '#6a9ac4', 'opacity="0.35" filter="url(#b8)"'))
      p.add(
        path(
          'M560 170 L-40 470',
          'none',
          'stroke="#ffffff" stroke-width="14" opacity="0.8" filter="url(#b3)"',
        ),
      )
      p.add(
        path(
          'M560 170 L120 660',
          'none',
          'stroke="#ffffff" stroke-width="14" opacity="0.8" filter="url(#b3)"',
        ),
      )
      p.add(
        path(
          'M560 170 L40 580',
          'none',
          'stroke="#e8f2fa" stroke-width="40" opacity="0.6" filter="url(#b8)"',
        ),
      )
      p.add(specks(p, 160, [380, 140, 240, 160], '#ffffff', [1, 3]))
      p.add(
        g(
          [
            path('M520 180 L640 110 Q680 96 672 120 L560 210 Z', '#f8f8f8'),
            path('M560 166 L620 130 L632 146 L574 184 Z', '#2a3a4a'),
          ].join(''),
        ),
      )
    },
  },
  {
    slug: 'high-speed-train',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#6aa8e0'],
          [1, '#e0eef8'],
        ]),
      )
      p.add(
        hills(p, 330, 40, 0.008, '#7aa060', 'opacity="0.7"'),
        band(p, 380, '#6a9a40', '#3e6a24'),
      )
      p.add(
        poly(
          [
            [-20, 420],
            [W + 20, 300],
            [W + 20, 330],
            [-20, 470],
          ],
          '#b0b0b0',
        ),
      )
      for (let x = 40; x < W; x += 110) p.add(rect(x, 440 - x * 0.15, 14, 200, '#9a9a9a'))
      p.add(
        g(
          [
            path('M-40 400 L560 300 Q700 290 760 318 L760 330 L-40 448 Z', '#f4f4f4'),
            path('M-40 436 L760 326 L760 334 L-40 452 Z', '#c82828'),
            path('M600 300 Q690 296 740 316 L680 318 Z', '#1e2a3a'),
          ].join(''),
          'filter="url(#b1)"',
        ),
      )
      for (let x = 20; x < 520; x += 26) p.add(rect(x, 396 - x * 0.165, 16, 10, '#2a3848'))
      for (let i = 0; i < 14; i++)
        p.add(
          line(
            p.rnd(-40, 300),
            p.rnd(390, 450),
            p.rnd(-200, 0),
            p.rnd(400, 470),
            '#ffffff',
            1.5,
            'opacity="0.5"',
          ),
        )
    },
  },
  {
    slug: 'skydivers-in-free-fall',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#1a5cb8'],
          [1, '#7ab4e8'],
        ]),
      )
      for (let i = 0; i < 9; i++)
        p.add(cloud(p, p.rnd(-50, W + 50), p.rnd(470, 590), p.rnd(90, 150), '#ffffff', 0.95))
      p.add(cloud(p, 120, 430, 60, '#e8f0fa', 0.7))
      const cx = 400
      const cy = 250
      for (let k = 0; k < 4; k++) {
        const a = (k * Math.PI) / 2 + 0.4
        const x = cx + Math.cos(a) * 120
        const y = cy + Math.sin(a) * 90
        const c = ['#f04020', '#f0c020', '#20a0e0', '#30c060'][k] ?? '#fff'
        p.add(
          g(
            [
              ellipse(x, y, 16, 34, c),
              circle(x, y - 38, 10, '#222'),
              line(x, y + 20, x + 16, y + 58, c, 8, 'stroke-linecap="round"'),
              line(x, y + 20, x - 16, y + 58, c, 8, 'stroke-linecap="round"'),
            ].join(''),
            `transform="translate(${n(x)} ${n(y)}) scale(1.8) rotate(${n((a * 180) / Math.PI + 90)}) translate(${n(-x)} ${n(-y)})"`,
          ),
        )
      }
      p.add(circle(cx, cy, 110, 'none', 'stroke="#ffffff" stroke-width="2" opacity="0.25"'))
    },
  },
  {
    slug: 'wildebeest-migration',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#c8d8e0'],
          [1, '#f0d8a0'],
        ]),
      )
      p.add(band(p, 330, '#d8b870', '#a8844a', 'filter="url(#tex)"'))
      p.add(
        g(
          [
            line(660, 330, 660, 270, '#3a2a1a', 6),
            ellipse(660, 262, 70, 14, '#3a4a22'),
            ellipse(640, 256, 40, 10, '#3a4a22'),
          ].join(''),
        ),
      )
      p.add(smoke(p, 200, 360, 90, '#d8c090', 300, 0.6))
      for (let i = 0; i < 120; i++) {
        const t = Math.pow(p.rand(), 0.7)
        const y = 340 + t * 250
        const s = 8 + t * 40
        const x = p.rnd(-20, W + 20)
        p.add(
          g(
            [
              ellipse(x, y - s * 0.9, s * 0.8, s * 0.42, '#2e2620'),
              path(
                `M${n(x + s * 0.6)} ${n(y - s * 1.1)} L${n(x + s * 1.1)} ${n(y - s * 0.7)} L${n(x + s * 0.95)} ${n(y - s * 0.5)} L${n(x + s * 0.5)} ${n(y - s * 0.8)} Z`,
                '#2a2420',
              ),
              line(
                x - s * 0.5,
                y - s * 0.6,
                x - s * 0.7 + p.rnd(-s * 0.3, s * 0.3),
                y,
                '#2a2420',
                s * 0.12,
              ),
              line(
                x + s * 0.4,
                y - s * 0.6,
                x + s * 0.5 + p.rnd(-s * 0.3, s * 0.3),
                y,
                '#2a2420',
                s * 0.12,
              ),
            ].join(''),
          ),
        )
      }
      p.add(smoke(p, 550, 560, 70, '#d8c090', -200, 0.45))
    },
  },
  {
    slug: 'light-trails-on-a-highway',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#0a1026'],
          [1, '#1a1a2e'],
        ]),
      )
      for (let i = 0; i < 11; i++) {
        const w = p.rnd(50, 100)
        const x = i * 75 - 20
        const top = p.rnd(60, 260)
        p.add(rect(x, top, w, 360 - top, '#0e1220'))
        for (let y = top + 10; y < 350; y += 16)
          for (let wx = x + 6; wx < x + w - 8; wx += 12)
            if (p.rand() > 0.55) p.add(rect(wx, y, 6, 8, p.pick(['#f8d890', '#c8e0f8', '#f0c070'])))
      }
      p.add(band(p, 350, '#141420', '#08080e'))
      for (let k = 0; k < 14; k++) {
        const red = k < 7
        const off = (k % 7) * 7
        const d = red
          ? `M-40 ${440 + off} Q400 ${330 + off} ${W + 40} ${400 + off}`
          : `M-40 ${500 + off} Q400 ${400 + off} ${W + 40} ${470 + off}`
        p.add(
          path(
            d,
            'none',
            `stroke="${red ? '#ff3a2a' : '#fff4d8'}" stroke-width="${n(p.rnd(1.5, 3.5))}" filter="url(#glow)" opacity="${n(p.rnd(0.6, 1))}"`,
          ),
        )
      }
    },
  },
  {
    slug: 'aerobatic-jets-at-an-air-show',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#1f63c2'],
          [1, '#9fcaf0'],
        ]),
      )
      const colors = ['#e8302a', '#ffffff', '#2a5ae0', '#ffffff', '#e8302a']
      for (let k = 0; k < 5; k++) {
        const dx = (k - 2) * 34
        const dy = Math.abs(k - 2) * 26
        const end = [560 + dx, 200 + dy] as const
        p.add(
          path(
            `M-40 ${520 + dy} Q200 ${560 + dy} ${n(end[0] - 140)} ${n(end[1] + 60)} Q${n(end[0] - 60)} ${n(end[1] + 10)} ${n(end[0])} ${n(end[1])}`,
            'none',
            `stroke="${colors[k]}" stroke-width="18" opacity="0.75" filter="url(#b3)"`,
          ),
        )
        p.add(
          g(
            [
              path('M-22 0 L20 -3 L26 0 L20 3 Z', '#4a5058'),
              path('M-4 0 L-14 -16 L-8 -16 L6 0 L-8 16 L-14 16 Z', '#3a4048'),
            ].join(''),
            `transform="translate(${n(end[0] + 10)} ${n(end[1] - 4)}) rotate(-28) scale(1.3)"`,
          ),
        )
      }
    },
  },
  {
    slug: 'windsurfer-on-the-waves',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#4aa0e8'],
          [1, '#cfeaf8'],
        ]),
      )
      p.add(cloud(p, 640, 120, 70, '#ffffff', 0.8))
      p.add(band(p, 300, '#27b0b8', '#0a6a8a'), waves(p, 305, 600, '#e8fafa', 260, 0.6))
      p.add(path('M300 470 L520 440 L530 452 L310 486 Z', '#f4f4f4'))
      p.add(line(400, 455, 440, 150, '#222', 4))
      p.add(
        path(
          'M440 150 Q560 240 560 420 L404 452 Z',
          p.lin([
            [0, '#ffdd30'],
            [0.5, '#ff8a1a'],
            [1, '#e8302a'],
          ]),
        ),
      )
      p.add(person(380, 460, 120, '#1a1a1a', 0.5), line(372, 380, 470, 330, '#1a1a1a', 6))
      p.add(specks(p, 120, [260, 430, 140, 70], '#ffffff', [1, 3.5]))
      p.add(
        path(
          'M300 480 Q220 470 120 500',
          'none',
          'stroke="#ffffff" stroke-width="8" opacity="0.7" filter="url(#b3)"',
        ),
      )
    },
  },
]
