// Scenes of the starter pool, part two: countryside, industry, water, living things, space.
import {
  type Drawing,
  H,
  W,
  archWindow,
  bird,
  circle,
  cloud,
  ellipse,
  g,
  halo,
  hills,
  line,
  n,
  palm,
  path,
  pine,
  poly,
  radialDisc,
  rect,
  reflect,
  roundTree,
  shadedRect,
  sky,
  stars,
  waves,
} from './draw.ts'

export const scenesB: Drawing[] = [
  {
    slug: 'tropical-beach-with-palms',
    draw: (p) => {
      sky(p, '#1f93e0', '#c6ecfb')
      for (let i = 0; i < 4; i++)
        p.add(cloud(p, p.rnd(100, W), p.rnd(60, 180), p.rnd(40, 80), '#ffffff', 0.9))
      p.add(
        rect(
          0,
          300,
          W,
          140,
          p.lin([
            [0, '#1376a8'],
            [0.5, '#17b3c4'],
            [1, '#6fe0d8'],
          ]),
        ),
      )
      p.add(waves(p, 302, 420, '#ffffff', 90, 0.4))
      p.add(
        path(
          'M-10 430 Q200 410 400 428 T810 420 L810 610 L-10 610 Z',
          p.lin([
            [0, '#efe0b4'],
            [1, '#e4cc92'],
          ]),
          'filter="url(#fine)"',
        ),
      )
      p.add(
        path(
          'M-10 428 Q200 408 400 426 T810 418',
          'none',
          'stroke="#ffffff" stroke-width="6" opacity="0.85" filter="url(#b1)"',
        ),
      )
      p.add(ellipse(230, 560, 90, 12, '#000', 'opacity="0.15" filter="url(#b3)"'))
      p.add(palm(140, 560, 380, 120), palm(230, 580, 300, 70, '#8a6a45', '#2a8a45'))
    },
  },
  {
    slug: 'wheat-field-with-a-barn',
    draw: (p) => {
      sky(p, '#5a9fdf', '#dcebf7')
      for (let i = 0; i < 5; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(40, 200), p.rnd(50, 90), '#ffffff', 0.9))
      for (let x = -20; x < 820; x += p.rnd(20, 40))
        p.add(roundTree(p, x, 330, p.rnd(60, 100), p.pick(['#2f6a2a', '#3a7a32', '#285a25'])))
      p.add(shadedRect(p, 0, 330, W, 270, '#e4bb46', '#b9861c'))
      for (let i = 0; i < 900; i++) {
        const y = 335 + Math.pow(p.rand(), 0.8) * 265
        const x = p.rnd(0, W)
        const h = 4 + (y - 330) * 0.09
        p.add(
          line(
            x,
            y,
            x + p.rnd(-1, 1),
            y - h,
            p.pick(['#f5d56e', '#a8741a', '#d9a53a']),
            Math.round(8 + (y - 330) / 15) / 10,
          ),
        )
      }
      const barn: string[] = [
        path('M450 340 L450 230 L480 180 L560 160 L640 180 L670 230 L670 340 Z', '#a3262a'),
        path(
          'M444 232 L480 176 L560 154 L640 176 L676 232',
          'none',
          'stroke="#e9e4dc" stroke-width="6"',
        ),
        rect(520, 260, 80, 80, '#7a1a1e'),
        path('M520 260 L600 340 M600 260 L520 340', 'none', 'stroke="#e9e4dc" stroke-width="5"'),
        rect(520, 260, 80, 80, 'none', 'stroke="#e9e4dc" stroke-width="5"'),
        rect(545, 200, 30, 26, '#e9e4dc'),
        rect(
          690,
          170,
          50,
          170,
          p.lin(
            [
              [0, '#c9cdd0'],
              [1, '#7d8287'],
            ],
            0,
            0,
            1,
            0,
          ),
        ),
        ellipse(715, 170, 25, 14, '#9ca1a5'),
      ]
      p.add(g(barn, 'filter="url(#fine)"'))
    },
  },
  {
    slug: 'lone-tree-at-sunset',
    draw: (p) => {
      sky(p, '#2d1b4a', '#fcd27a', '#ee7b4b')
      p.add(halo(p, 470, 420, 200, '#fff1b8', 0.8, '#ffb060'), circle(470, 420, 70, '#fff0c0'))
      for (let i = 0; i < 5; i++)
        p.add(
          ellipse(
            p.rnd(0, W),
            p.rnd(120, 330),
            p.rnd(80, 200),
            p.rnd(4, 9),
            '#7a3a5a',
            'opacity="0.6" filter="url(#b3)"',
          ),
        )
      p.add(path('M-20 610 L-20 480 Q300 380 560 440 Q700 470 820 500 L820 610 Z', '#0b0610'))
      const t: string[] = [
        path(
          'M318 420 L324 300 L300 250 L312 248 L330 290 L338 240 L348 240 L342 300 L370 260 L378 266 L346 318 L342 420 Z',
          '#0b0610',
        ),
      ]
      for (let i = 0; i < 34; i++)
        t.push(
          circle(
            335 + p.rnd(-130, 130) * (1 - Math.abs(p.rnd(-0.3, 0.3))),
            230 + p.rnd(-70, 40),
            p.rnd(22, 44),
            '#0b0610',
          ),
        )
      p.add(...t)
      for (let i = 0; i < 5; i++)
        p.add(bird(p.rnd(520, 720), p.rnd(120, 220), p.rnd(6, 10), '#1a0e1e'))
    },
  },
  {
    slug: 'cave-entrance',
    draw: (p) => {
      sky(p, '#6db3e8', '#e4f2fb')
      p.add(hills(p, 360, 60, 0.012, '#7ba386'))
      p.add(hills(p, 420, 40, 0.016, '#4f8a45'))
      for (let i = 0; i < 12; i++)
        p.add(pine(p.rnd(220, 600), p.rnd(420, 470), p.rnd(40, 80), '#2a5a2a'))
      const pts: string[] = []
      for (let a = 0; a < 360; a += 10) {
        const r = (a * Math.PI) / 180
        const k = p.rnd(0.85, 1.08)
        pts.push(
          `${n(400 + Math.cos(r) * 230 * k)} ${n(330 + Math.sin(r) * 200 * k + (Math.sin(r) > 0 ? 30 : 0))}`,
        )
      }
      const rock = `M-20 -20 L820 -20 L820 620 L-20 620 Z M${pts.join(' L')} Z`
      p.add(
        g(
          path(
            rock,
            p.rad(
              [
                [0, '#5a4a3a'],
                [0.6, '#2a221c'],
                [1, '#0c0a08'],
              ],
              400,
              330,
              520,
            ),
            'fill-rule="evenodd"',
          ),
          'filter="url(#rough)"',
        ),
      )
      for (let i = 0; i < 14; i++) {
        const x = p.rnd(220, 590)
        const top = 140 + Math.abs(x - 400) * 0.3
        p.add(
          poly(
            [
              [x - p.rnd(6, 14), top - 20],
              [x + p.rnd(6, 14), top - 20],
              [x, top + p.rnd(20, 60)],
            ],
            '#2e261f',
          ),
        )
      }
      p.add(
        path(
          'M-20 610 L150 520 Q400 500 650 530 L820 600 L820 620 L-20 620 Z',
          '#1a1511',
          'filter="url(#tex)"',
        ),
      )
      for (let i = 0; i < 10; i++)
        p.add(
          ellipse(
            p.rnd(100, 700),
            p.rnd(540, 600),
            p.rnd(20, 50),
            p.rnd(10, 20),
            '#2c241d',
            'filter="url(#tex)"',
          ),
        )
    },
  },
  {
    slug: 'iceberg',
    draw: (p) => {
      sky(p, '#cfe0ea', '#f6fafc')
      p.add(shadedRect(p, 0, 330, W, 270, '#1d4a66', '#071a29'))
      p.add(
        path(
          'M220 340 L160 420 L200 520 L330 590 L520 580 L640 480 L620 380 L560 340 Z',
          '#3fa0b8',
          'opacity="0.55" filter="url(#b8)"',
        ),
      )
      p.add(waves(p, 332, 600, '#9fc8dc', 120, 0.35))
      p.add(
        poly(
          [
            [240, 334],
            [300, 220],
            [350, 240],
            [410, 130],
            [470, 200],
            [520, 190],
            [580, 334],
          ],
          '#f4fafd',
        ),
      )
      p.add(
        poly(
          [
            [410, 130],
            [470, 200],
            [520, 190],
            [580, 334],
            [440, 334],
          ],
          '#b7d7e8',
        ),
        poly(
          [
            [300, 220],
            [350, 240],
            [330, 334],
            [240, 334],
          ],
          '#d8ebf4',
        ),
      )
      p.add(line(230, 334, 590, 334, '#ffffff', 4, 'opacity="0.8" filter="url(#b1)"'))
    },
  },
  {
    slug: 'harbour-with-cranes',
    draw: (p) => {
      sky(p, '#34466c', '#f2a65a', '#b07a7a')
      p.add(shadedRect(p, 0, 430, W, 170, '#283a4e', '#0e1824'))
      p.add(rect(0, 400, 430, 30, '#5a5e63'))
      const colors = ['#c0392b', '#2e6fb7', '#e67e22', '#27ae60', '#8e44ad', '#d4ac0d']
      for (let x = 0; x < 400; x += 34)
        for (let y = 386; y > 386 - p.rnd(2, 6) * 14; y -= 14)
          p.add(rect(x, y, 32, 13, p.pick(colors), 'filter="url(#fine)"'))
      p.add(
        path('M440 400 L800 400 L800 450 L470 450 Z', '#2b2b30'),
        rect(440, 396, 360, 6, '#8a2a22'),
        rect(720, 330, 60, 68, '#e8e8e8'),
      )
      for (let x = 460; x < 710; x += 34)
        for (let y = 382; y > 382 - p.rnd(1, 4) * 14; y -= 14)
          p.add(rect(x, y, 32, 13, p.pick(colors)))
      for (const [x, c] of [
        [120, '#e2662a'],
        [300, '#2a62c8'],
        [520, '#e2662a'],
      ] as const) {
        p.add(
          line(x, 400, x + 20, 150, c, 7),
          line(x + 90, 400, x + 70, 150, c, 7),
          line(x + 10, 280, x + 80, 280, c, 5),
        )
        p.add(
          rect(x - 60, 140, 320, 14, c),
          poly(
            [
              [x + 20, 140],
              [x + 45, 80],
              [x + 70, 140],
            ],
            'none',
            `stroke="${c}" stroke-width="4"`,
          ),
        )
        p.add(
          line(x + 45, 80, x - 60, 140, c, 2),
          line(x + 45, 80, x + 260, 140, c, 2),
          rect(x + 120, 154, 30, 20, '#333'),
          line(x + 135, 174, x + 135, 300, '#222', 1.5),
        )
      }
      p.add(waves(p, 452, 600, '#f2a65a', 120, 0.35))
    },
  },
  {
    slug: 'concrete-dam',
    draw: (p) => {
      sky(p, '#5c9bd6', '#dbeaf6')
      p.add(rect(150, 180, 500, 40, '#3e78a0'), rect(150, 470, 500, 140, '#4d5c40'))
      p.add(
        path(
          'M160 170 Q400 210 640 170 L600 480 Q400 500 200 480 Z',
          p.lin(
            [
              [0, '#d4d0c6'],
              [0.6, '#b3aea2'],
              [1, '#8f8a7e'],
            ],
            0,
            0,
            1,
            0,
          ),
          'filter="url(#tex)"',
        ),
      )
      for (let k = 0; k < 12; k++)
        p.add(
          line(
            190 + k * 38,
            178 + Math.abs(k - 6) * -3,
            210 + k * 33,
            485,
            '#8a857a',
            1,
            'opacity="0.6"',
          ),
        )
      p.add(rect(160, 168, 480, 10, '#e4e0d6'))
      p.add(
        path(
          'M370 190 L430 190 L440 480 L360 480 Z',
          p.lin([
            [0, '#eef6f8'],
            [1, '#ffffff'],
          ]),
        ),
      )
      for (let i = 0; i < 24; i++) {
        const x = p.rnd(372, 428)
        p.add(line(x, 192, x + (x - 400) * 0.3, 480, '#a8c8d4', p.rnd(1, 3), 'opacity="0.7"'))
      }
      p.add(
        g(
          path(
            'M-20 610 L-20 40 L120 90 L200 170 L210 480 L300 610 Z',
            p.lin([
              [0, '#6e7d5c'],
              [1, '#3a4530'],
            ]),
          ),
          'filter="url(#rough)"',
        ),
      )
      p.add(
        g(
          path(
            'M820 610 L820 30 L690 80 L630 170 L590 480 L500 610 Z',
            p.lin([
              [0, '#5f6e50'],
              [1, '#333d2a'],
            ]),
          ),
          'filter="url(#rough)"',
        ),
      )
      p.add(path('M300 610 Q360 520 380 490 L420 490 Q450 520 500 610 Z', '#3f7890'))
      for (let i = 0; i < 20; i++)
        p.add(
          ellipse(
            400 + p.rnd(-70, 70),
            490 + p.rnd(-10, 30),
            p.rnd(20, 50),
            p.rnd(10, 25),
            '#ffffff',
            'opacity="0.8" filter="url(#b8)"',
          ),
        )
    },
  },
  {
    slug: 'stone-arch-bridge',
    draw: (p) => {
      sky(p, '#8bbde6', '#eef4f8')
      for (let i = 0; i < 4; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(30, 150), p.rnd(50, 90), '#ffffff', 0.85))
      const banks: string[] = []
      for (let x = -40; x < 840; x += p.rnd(35, 60))
        banks.push(roundTree(p, x, 330, p.rnd(120, 190), p.pick(['#3d7a36', '#2f6a2c', '#4d8a3e'])))
      p.add(...banks)
      p.add(shadedRect(p, 0, 330, W, 270, '#4f7a5a', '#2a4a36'))
      p.add(reflect(p, banks.join(''), 330, 0.35))
      const arches: [number, number][] = [
        [180, 90],
        [400, 110],
        [620, 90],
      ]
      let d = 'M40 230 L760 230 L760 330 L40 330 Z'
      for (const [cx, r] of arches) d += ` M${cx - r} 330 A${r} ${r} 0 0 1 ${cx + r} 330 Z`
      const bridge = [
        g(
          path(
            d,
            p.lin([
              [0, '#d6c29c'],
              [1, '#a08a68'],
            ]),
            'fill-rule="evenodd"',
          ),
          'filter="url(#tex)"',
        ),
      ]
      const courses: string[] = []
      for (let y = 240; y < 330; y += 14)
        courses.push(line(40, y, 760, y, '#6a5e4e', 0.8, 'opacity="0.5"'))
      bridge.push(g(courses, `clip-path="${p.clip(path(d, '#000', 'clip-rule="evenodd"'))}"`))
      bridge.push(rect(30, 218, 740, 14, '#bfae8c'))
      p.add(...bridge)
      p.add(reflect(p, bridge.join(''), 330, 0.6))
      p.add(waves(p, 335, 600, '#dfe8e2', 60, 0.25))
    },
  },
  {
    slug: 'wind-farm',
    draw: (p) => {
      sky(p, '#3f8fdc', '#e3f0fa')
      for (let i = 0; i < 5; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(40, 220), p.rnd(50, 90), '#ffffff', 0.85))
      p.add(hills(p, 430, 60, 0.008, '#8fb878'))
      const turbine = (x: number, y: number, h: number): string => {
        const a0 = p.rnd(0, 120)
        const blades: string[] = []
        for (let k = 0; k < 3; k++)
          blades.push(
            path(
              `M0 0 L${n(h * 0.03)} ${n(-h * 0.05)} L${n(h * 0.008)} ${n(-h * 0.55)} L${n(-h * 0.012)} ${n(-h * 0.05)} Z`,
              '#f6f8fa',
              `transform="rotate(${n(a0 + k * 120)})"`,
            ),
          )
        return [
          poly(
            [
              [x - h * 0.025, y],
              [x + h * 0.025, y],
              [x + h * 0.01, y - h],
              [x - h * 0.01, y - h],
            ],
            p.lin(
              [
                [0, '#ffffff'],
                [1, '#b9c2ca'],
              ],
              0,
              0,
              1,
              0,
            ),
          ),
          rect(x - h * 0.03, y - h - h * 0.025, h * 0.09, h * 0.05, '#e6eaee', 'rx="3"'),
          g(blades, `transform="translate(${n(x)} ${n(y - h)})"`),
          circle(x, y - h, h * 0.02, '#cfd5db'),
        ].join('')
      }
      for (const [x, y, h] of [
        [120, 410, 150],
        [300, 400, 170],
        [480, 395, 160],
        [650, 405, 150],
      ])
        p.add(turbine(x ?? 0, y ?? 0, h ?? 0))
      p.add(
        hills(
          p,
          520,
          60,
          0.006,
          p.lin([
            [0, '#5c9a3e'],
            [1, '#3a6e28'],
          ]),
        ),
      )
      for (const [x, y, h] of [
        [220, 520, 330],
        [600, 500, 300],
      ])
        p.add(turbine(x ?? 0, y ?? 0, h ?? 0))
    },
  },
  {
    slug: 'total-solar-eclipse',
    draw: (p) => {
      sky(p, '#03050c', '#1c2238')
      p.add(stars(p, 60, 400, '#fff', 1.1))
      p.add(
        radialDisc(p, 400, 250, 200, [
          [0.3, '#ffffff', 0.9],
          [0.45, '#dfe8ff', 0.45],
          [1, '#8090c0', 0],
        ]),
      )
      for (let a = 0; a < 360; a += 12) {
        const r = ((a + p.rnd(-5, 5)) * Math.PI) / 180
        const len = p.rnd(120, 220)
        p.add(
          line(
            400,
            250,
            400 + Math.cos(r) * len,
            250 + Math.sin(r) * len,
            '#eef2ff',
            p.rnd(3, 8),
            'opacity="0.25" filter="url(#b8)"',
          ),
        )
      }
      p.add(circle(400, 250, 72, '#020204'))
      p.add(
        circle(452, 200, 8, '#ffffff', 'filter="url(#glow)"'),
        line(412, 200, 492, 200, '#ffffff', 2, 'filter="url(#b1)"'),
        line(452, 160, 452, 240, '#ffffff', 2, 'filter="url(#b1)"'),
      )
      p.add(
        rect(
          0,
          480,
          W,
          120,
          p.lin([
            [0, '#e0864a', 0.6],
            [0.3, '#2a1c1a'],
            [1, '#050404'],
          ]),
        ),
      )
      p.add(hills(p, 520, 40, 0.01, '#050404'))
    },
  },
  {
    slug: 'fireworks-over-water',
    draw: (p) => {
      sky(p, '#04050f', '#1b1e3c')
      const bursts: string[] = []
      for (const [cx, cy, r, c] of [
        [250, 170, 130, '#ff4d6d'],
        [520, 130, 150, '#ffd166'],
        [640, 290, 100, '#7bff8a'],
        [360, 310, 90, '#c77dff'],
        [130, 320, 70, '#5ad1ff'],
      ] as const) {
        bursts.push(
          radialDisc(p, cx, cy, r * 0.9, [
            [0, c, 0.35],
            [1, c, 0],
          ]),
        )
        for (let k = 0; k < 48; k++) {
          const a = (k / 48) * Math.PI * 2 + p.rnd(-0.04, 0.04)
          const len = r * p.rnd(0.7, 1)
          const x2 = cx + Math.cos(a) * len
          const y2 = cy + Math.sin(a) * len + len * 0.12
          bursts.push(
            path(
              `M${n(cx + Math.cos(a) * len * 0.25)} ${n(cy + Math.sin(a) * len * 0.25)} Q${n(cx + Math.cos(a) * len * 0.7)} ${n(cy + Math.sin(a) * len * 0.7)} ${n(x2)} ${n(y2)}`,
              'none',
              `stroke="${c}" stroke-width="2" opacity="0.85"`,
            ),
          )
          bursts.push(circle(x2, y2, 2.5, '#ffffff'))
        }
      }
      p.add(g(bursts, 'filter="url(#glow)"'))
      p.add(rect(0, 420, W, 180, '#05060c'))
      p.add(reflect(p, bursts.join(''), 420, 0.45))
      const city: string[] = []
      for (let x = -10; x < W; x += p.rnd(25, 50))
        city.push(rect(x, 420 - p.rnd(15, 60), p.rnd(25, 50), 80, '#020207'))
      p.add(g(city, ''))
      p.add(waves(p, 424, 600, '#ffd166', 80, 0.3))
    },
  },
  {
    slug: 'fountain-in-a-plaza',
    draw: (p) => {
      sky(p, '#78b4e6', '#e6f0f8')
      for (let x = -10; x < W; x += 130) {
        const h = p.rnd(170, 230)
        const face = p.pick(['#e8d6b4', '#e2c49a', '#d9b8a0', '#efe2c8'])
        p.add(
          rect(x, 330 - h, 128, h, face, 'filter="url(#fine)"'),
          rect(x, 330 - h - 10, 128, 12, '#9a5a3a'),
        )
        for (let r = 0; r < 3; r++)
          for (let c = 0; c < 3; c++)
            p.add(archWindow(x + 16 + c * 38, 330 - h + 24 + r * 55, 18, 32, '#4a5a6a'))
      }
      p.add(rect(0, 330, W, 270, '#cbbfa8'))
      for (let k = 0; k < 14; k++)
        p.add(line(400 + (k - 7) * 40, 330, 400 + (k - 7) * 200, 600, '#a89c86', 1.5))
      for (let k = 0; k < 8; k++) {
        const y = 330 + Math.pow(k / 8, 1.7) * 270
        p.add(line(0, y, W, y, '#a89c86', 1.5))
      }
      p.add(
        ellipse(400, 480, 250, 60, '#9e9484'),
        ellipse(400, 474, 236, 52, '#4f8fa8'),
        ellipse(
          400,
          474,
          236,
          52,
          p.rad(
            [
              [0, '#9fd0e0', 0.6],
              [1, '#9fd0e0', 0],
            ],
            400,
            474,
            236,
            0.25,
          ),
        ),
      )
      p.add(
        rect(388, 300, 24, 176, '#a49a88'),
        ellipse(400, 380, 90, 18, '#b3a996'),
        ellipse(400, 310, 50, 11, '#b3a996'),
      )
      for (let k = -6; k <= 6; k++) {
        if (k === 0) continue
        p.add(
          path(
            `M400 300 Q${400 + k * 18} 200 ${400 + k * 34} ${k % 2 ? 470 : 385}`,
            'none',
            'stroke="#ffffff" stroke-width="2.5" opacity="0.8"',
          ),
        )
      }
      p.add(line(400, 300, 400, 200, '#ffffff', 4, 'opacity="0.9"'))
      for (let i = 0; i < 60; i++)
        p.add(
          circle(
            400 + p.rnd(-230, 230),
            p.rnd(370, 480),
            p.rnd(1, 2.5),
            '#ffffff',
            'opacity="0.8"',
          ),
        )
    },
  },
  {
    slug: 'greenhouse',
    draw: (p) => {
      sky(p, '#8ec4ec', '#f0f6fa')
      p.add(shadedRect(p, 0, 420, W, 180, '#6aa84f', '#3f7a2e'))
      for (let x = -20; x < 840; x += 60) p.add(roundTree(p, x, 420, p.rnd(80, 120), '#4a8a3c'))
      p.add(path('M340 600 L380 470 L420 470 L460 600 Z', '#c9b28a'))
      const inside: string[] = []
      for (let i = 0; i < 50; i++)
        inside.push(
          circle(
            p.rnd(180, 640),
            p.rnd(330, 460),
            p.rnd(12, 28),
            p.pick(['#2f7a2f', '#3e9a3a', '#226a26']),
          ),
        )
      for (let i = 0; i < 24; i++)
        inside.push(circle(p.rnd(190, 630), p.rnd(360, 450), 5, '#d8322a'))
      p.add(
        rect(170, 300, 480, 170, '#cfe8ef', 'opacity="0.6"'),
        poly(
          [
            [170, 300],
            [410, 170],
            [650, 300],
          ],
          '#dff0f5',
          'opacity="0.6"',
        ),
      )
      p.add(...inside)
      p.add(
        rect(170, 300, 480, 170, '#e8f6fb', 'opacity="0.25"'),
        poly(
          [
            [170, 300],
            [410, 170],
            [650, 300],
          ],
          '#ffffff',
          'opacity="0.35"',
        ),
      )
      for (let x = 170; x <= 650; x += 40) {
        p.add(line(x, 300, x, 470, '#ffffff', 3))
        const ty = 300 - (x <= 410 ? (x - 170) * (130 / 240) : (650 - x) * (130 / 240))
        p.add(line(x, 300, x, ty, '#ffffff', 2.5))
      }
      p.add(
        line(170, 385, 650, 385, '#ffffff', 2),
        line(170, 300, 650, 300, '#ffffff', 4),
        line(170, 470, 650, 470, '#ffffff', 4),
      )
      p.add(
        path('M170 300 L410 170 L650 300', 'none', 'stroke="#ffffff" stroke-width="5"'),
        poly(
          [
            [230, 268],
            [300, 230],
            [300, 268],
          ],
          '#ffffff',
          'opacity="0.6"',
        ),
      )
    },
  },
  {
    slug: 'offshore-oil-rig',
    draw: (p) => {
      sky(p, '#6f869c', '#d4dde5')
      for (let i = 0; i < 6; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(30, 200), p.rnd(60, 110), '#9aa8b4', 0.7))
      p.add(shadedRect(p, 0, 400, W, 200, '#3a5266', '#16222e'))
      p.add(waves(p, 402, 600, '#c8d4de', 200, 0.5))
      for (const x of [250, 330, 470, 550])
        p.add(
          rect(
            x,
            320,
            26,
            250,
            p.lin(
              [
                [0, '#e4c23a'],
                [1, '#8a7420'],
              ],
              0,
              0,
              1,
              0,
            ),
          ),
        )
      p.add(line(263, 360, 483, 560, '#8a7420', 4), line(483, 360, 263, 560, '#8a7420', 4))
      p.add(
        rect(200, 290, 420, 36, '#4a4f55'),
        rect(220, 240, 120, 50, '#d9dde0'),
        rect(350, 250, 80, 40, '#c0392b'),
        rect(560, 262, 70, 28, '#e8e8e8'),
      )
      p.add(ellipse(595, 262, 40, 6, '#3a3f44'))
      const d: string[] = []
      for (let y = 80; y < 290; y += 26) {
        const w = 16 + (y - 80) * 0.14
        d.push(
          line(460 - w, y, 460 + w, y + 26, '#2a2e33', 2),
          line(460 + w, y, 460 - w, y + 26, '#2a2e33', 2),
        )
      }
      d.push(
        poly(
          [
            [444, 70],
            [476, 70],
            [506, 290],
            [414, 290],
          ],
          'none',
          'stroke="#2a2e33" stroke-width="4"',
        ),
      )
      p.add(...d)
      p.add(line(620, 300, 740, 200, '#555b61', 6))
      for (let i = 0; i < 14; i++)
        p.add(
          circle(
            750 + i * 6 + p.rnd(-10, 10),
            150 - i * 8 + p.rnd(-10, 10),
            14 + i * 2,
            '#1c1c1e',
            'opacity="0.7" filter="url(#b8)"',
          ),
        )
      p.add(
        path('M730 200 Q735 150 760 120 Q760 160 755 200 Z', '#ff8a1a', 'filter="url(#glow)"'),
        path('M736 200 Q742 170 752 150 Q752 180 750 200 Z', '#ffe27a'),
      )
    },
  },
  {
    slug: 'radio-tower',
    draw: (p) => {
      sky(p, '#2f80d2', '#d2e7f7')
      p.add(
        hills(
          p,
          520,
          30,
          0.01,
          p.lin([
            [0, '#6da84a'],
            [1, '#3f7a2e'],
          ]),
        ),
      )
      for (let k = 1; k <= 3; k++)
        p.add(
          path(
            `M${400 - k * 50} ${60 - k * 10} A${k * 60} ${k * 60} 0 0 0 ${400 - k * 50} ${60 + k * 70} M${400 + k * 50} ${60 - k * 10} A${k * 60} ${k * 60} 0 0 1 ${400 + k * 50} ${60 + k * 70}`,
            'none',
            'stroke="#ffffff" stroke-width="2.5" opacity="0.45"',
          ),
        )
      for (const [top, ax] of [
        [150, 130],
        [300, 180],
        [420, 250],
        [150, 670],
        [300, 620],
        [420, 550],
      ] as const)
        p.add(line(400, top, ax, 540, '#3a3f44', 1))
      const m: string[] = []
      for (let y = 50; y < 545; y += 40) {
        const w = 7 + (y - 50) * 0.012
        m.push(rect(400 - w, y, w * 2, 40, Math.floor((y - 50) / 40) % 2 ? '#ffffff' : '#d0312d'))
        m.push(
          line(400 - w, y, 400 + w, y + 20, '#6a1a18', 1.2),
          line(400 + w, y + 20, 400 - w, y + 40, '#6a1a18', 1.2),
        )
      }
      p.add(
        ...m,
        line(400, 10, 400, 52, '#333', 3),
        circle(400, 12, 5, '#ff2020', 'filter="url(#glow)"'),
        circle(400, 150, 4, '#ff2020', 'filter="url(#glow)"'),
      )
      p.add(rect(430, 510, 70, 40, '#c8c2b4'), rect(426, 504, 78, 8, '#6a6a6a'))
    },
  },
  {
    slug: 'field-of-flowers',
    draw: (p) => {
      sky(p, '#86c1ee', '#f0f7fd')
      for (let i = 0; i < 4; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(40, 180), p.rnd(50, 90), '#ffffff', 0.8))
      p.add(hills(p, 330, 50, 0.01, '#7fa7a0'))
      p.add(
        hills(
          p,
          360,
          30,
          0.014,
          p.lin([
            [0, '#6fa84a'],
            [0.4, '#4f8a32'],
            [1, '#2f5a1e'],
          ]),
        ),
      )
      const f: string[] = []
      for (let i = 0; i < 1400; i++) {
        const t = Math.pow(p.rand(), 0.6)
        const y = 360 + t * 250
        const x = p.rnd(-10, 810)
        const r = 1 + t * t * 16
        const c =
          p.rand() < 0.6
            ? p.pick(['#e02020', '#d3141c', '#f03a2a'])
            : p.pick(['#ffd21f', '#ffffff', '#9b59d0', '#ff8ac0'])
        if (r > 6) f.push(line(x, y, x + p.rnd(-3, 3), y + r * 2.5, '#2f6a22', 1.5))
        f.push(circle(x, y, r, c))
        if (r > 8) f.push(circle(x, y, r * 0.28, '#1a1a1a'))
      }
      p.add(...f)
    },
  },
  {
    slug: 'flock-of-birds-at-sunset',
    draw: (p) => {
      sky(p, '#5a4a8a', '#ffc07a', '#f08a9a')
      p.add(halo(p, 600, 500, 160, '#fff2c0', 0.9, '#ffb070'), circle(600, 500, 40, '#fff4d0'))
      p.add(rect(0, 510, W, 90, '#1a1420'), waves(p, 515, 600, '#ffb070', 60, 0.3))
      const flock: string[] = []
      for (let i = 0; i < 420; i++) {
        const a = p.rnd(0, Math.PI * 2)
        const r = Math.sqrt(p.rand())
        const x = 330 + Math.cos(a) * r * 230 + Math.sin(r * 6) * 30
        const y = 260 + Math.sin(a) * r * 100 + Math.cos(x * 0.02) * 30
        flock.push(bird(x, y, p.rnd(4, 8), '#140e18'))
      }
      p.add(g(flock, 'transform="rotate(-12 330 260)"'))
      for (let k = 0; k < 9; k++)
        p.add(
          bird(640 + Math.abs(k - 4) * 30, 120 + (k - 4) * 18 + Math.abs(k - 4) * 8, 12, '#140e18'),
        )
    },
  },
  {
    slug: 'whale-tail-in-the-sea',
    draw: (p) => {
      sky(p, '#9bbcd3', '#e6eef4')
      for (let i = 0; i < 5; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(30, 150), p.rnd(60, 100), '#ffffff', 0.7))
      p.add(shadedRect(p, 0, 210, W, 390, '#2f6485', '#0b2436'))
      p.add(waves(p, 212, 600, '#d6e6f0', 260, 0.5))
      p.add(
        path(
          'M370 440 C380 370 385 330 388 300 C340 290 290 250 262 200 C320 222 372 238 400 258 C428 238 480 222 538 200 C510 250 460 290 412 300 C415 330 420 370 430 440 Z',
          p.lin(
            [
              [0, '#3c4248'],
              [0.5, '#23282d'],
              [1, '#171a1e'],
            ],
            0,
            0,
            1,
            0,
          ),
        ),
      )
      p.add(
        path(
          'M300 222 C340 236 370 246 396 262 C360 250 330 240 300 222 Z',
          '#c8ccd0',
          'opacity="0.6"',
        ),
      )
      for (let i = 0; i < 24; i++) {
        const x = p.pick([p.rnd(265, 395), p.rnd(405, 535)])
        const y0 = 200 + Math.abs(x - 400) * -0.3 + 60
        p.add(
          line(
            x,
            y0,
            x + p.rnd(-3, 3),
            y0 + p.rnd(40, 180),
            '#e8f2f8',
            p.rnd(1, 2.5),
            'opacity="0.6"',
          ),
        )
      }
      for (let i = 0; i < 30; i++)
        p.add(circle(p.rnd(260, 540), p.rnd(220, 420), p.rnd(1, 3), '#ffffff', 'opacity="0.8"'))
      for (let i = 0; i < 16; i++)
        p.add(
          ellipse(
            400 + p.rnd(-80, 80),
            440 + p.rnd(-6, 10),
            p.rnd(20, 50),
            p.rnd(5, 10),
            '#ffffff',
            'opacity="0.75" filter="url(#b3)"',
          ),
        )
    },
  },
  {
    slug: 'herd-of-elephants',
    draw: (p) => {
      sky(p, '#e8c07a', '#fbeccb')
      p.add(halo(p, 650, 170, 100, '#fff6d8', 0.8), circle(650, 170, 34, '#fff8e0'))
      p.add(hills(p, 390, 20, 0.01, '#b8a47a'))
      p.add(shadedRect(p, 0, 400, W, 200, '#cfae5c', '#a07a30'))
      for (let i = 0; i < 500; i++) {
        const y = p.rnd(400, 600)
        const x = p.rnd(0, W)
        p.add(
          line(x, y, x + p.rnd(-2, 2), y - 3 - (y - 400) * 0.05, p.pick(['#e6c777', '#8c6a2a']), 1),
        )
      }
      p.add(
        path(
          'M140 420 L146 330 L120 290 L128 286 L150 320 L160 270 L168 272 L158 330 L190 292 L196 298 L162 350 L158 420 Z',
          '#3a2a1c',
        ),
      )
      p.add(ellipse(155, 280, 120, 26, '#3f5a2a'), ellipse(150, 268, 90, 16, '#4a6a32'))
      const elephant = (x: number, y: number, s: number): string =>
        g(
          [
            ellipse(0, -55, 58, 38, '#6a6058'),
            rect(-44, -40, 16, 40, '#5e544d'),
            rect(-20, -34, 16, 34, '#5a5048'),
            rect(18, -36, 16, 36, '#5e544d'),
            rect(36, -40, 16, 40, '#5a5048'),
            circle(-62, -70, 26, '#6a6058'),
            ellipse(-48, -66, 16, 24, '#5a5048'),
            path('M-82 -70 Q-98 -30 -86 -4 L-78 -6 Q-86 -34 -68 -58 Z', '#6a6058'),
            path('M56 -62 Q68 -48 64 -30', 'none', 'stroke="#5a5048" stroke-width="3"'),
          ],
          `transform="translate(${n(x)} ${n(y)}) scale(${n(s)})"`,
        )
      p.add(
        elephant(300, 470, 1),
        elephant(390, 478, 0.6),
        elephant(480, 472, 1.1),
        elephant(580, 476, 0.55),
        elephant(680, 470, 0.95),
      )
      p.add(ellipse(500, 490, 260, 12, '#7a5a28', 'opacity="0.35" filter="url(#b3)"'))
    },
  },
  {
    slug: 'church-with-a-spire',
    draw: (p) => {
      sky(p, '#5b9ad8', '#e4eef7')
      for (let i = 0; i < 5; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(40, 200), p.rnd(50, 90), '#ffffff', 0.85))
      p.add(roundTree(p, 90, 470, 220, '#3a7a34'), roundTree(p, 730, 470, 200, '#2f6a2c'))
      p.add(shadedRect(p, 0, 460, W, 140, '#6aa84f', '#3f7a2e'))
      const c: string[] = [
        rect(330, 330, 300, 140, '#f3efe6'),
        poly(
          [
            [320, 332],
            [480, 250],
            [640, 332],
          ],
          '#5a5f66',
        ),
        rect(
          250,
          230,
          84,
          240,
          p.lin(
            [
              [0, '#ffffff'],
              [1, '#d8d4ca'],
            ],
            0,
            0,
            1,
            0,
          ),
        ),
        poly(
          [
            [244, 232],
            [340, 232],
            [292, 50],
          ],
          '#4a4f56',
        ),
        poly(
          [
            [292, 50],
            [340, 232],
            [300, 232],
          ],
          '#363a40',
        ),
        line(292, 50, 292, 22, '#333', 3),
        line(282, 32, 302, 32, '#333', 3),
        circle(292, 270, 20, '#ffffff', 'stroke="#333" stroke-width="3"'),
        line(292, 270, 292, 256, '#222', 2),
        line(292, 270, 302, 274, '#222', 2),
        path('M276 470 L276 420 Q292 396 308 420 L308 470 Z', '#4a3424'),
      ]
      for (let k = 0; k < 4; k++) c.push(archWindow(370 + k * 64, 360, 22, 60, '#5a7a9a'))
      c.push(archWindow(282, 320, 20, 40, '#5a7a9a'))
      p.add(...c)
      for (let k = 0; k < 6; k++)
        p.add(
          path(
            `M${560 + k * 34} 540 L${560 + k * 34} 518 Q${570 + k * 34} 506 ${580 + k * 34} 518 L${580 + k * 34} 540 Z`,
            '#9a9a96',
          ),
        )
    },
  },
  {
    slug: 'market-stalls',
    draw: (p) => {
      sky(p, '#9cc8ec', '#eef5fa')
      for (let x = -10; x < W; x += 160) {
        p.add(
          rect(
            x,
            60,
            158,
            300,
            p.pick(['#d9b48a', '#c9a27a', '#e6cfa8', '#b88a6a']),
            'filter="url(#fine)"',
          ),
        )
        for (let r = 0; r < 2; r++)
          for (let c = 0; c < 3; c++) p.add(rect(x + 20 + c * 46, 90 + r * 70, 26, 40, '#4a5868'))
      }
      p.add(rect(0, 360, W, 240, '#8a8276'))
      const stripes = [
        ['#d6282a', '#ffffff'],
        ['#2a8a3a', '#ffffff'],
        ['#2a5ab0', '#f4e04a'],
        ['#d6282a', '#ffffff'],
      ]
      stripes.forEach(([a, b], i) => {
        const x = 10 + i * 198
        const aw: string[] = []
        for (let k = 0; k < 8; k++)
          aw.push(
            poly(
              [
                [x + k * 22, 240],
                [x + k * 22 + 22, 240],
                [x + k * 24 + 24, 300],
                [x + k * 24, 300],
              ],
              k % 2 ? (b ?? '#fff') : (a ?? '#f00'),
            ),
          )
        for (let k = 0; k < 8; k++)
          aw.push(
            path(`M${x + k * 24} 300 a12 12 0 0 0 24 0 Z`, k % 2 ? (b ?? '#fff') : (a ?? '#f00')),
          )
        p.add(g(aw, ''))
        p.add(
          line(x + 4, 300, x + 4, 460, '#4a3a2a', 4),
          line(x + 186, 300, x + 186, 460, '#4a3a2a', 4),
          rect(x, 400, 192, 18, '#7a5a3a'),
          rect(x + 6, 418, 180, 50, '#5a4028'),
        )
        for (let k = 0; k < 40; k++)
          p.add(
            circle(
              x + p.rnd(12, 180),
              400 - p.rnd(0, 18),
              p.rnd(5, 8),
              p.pick(['#ff8c1a', '#e02a2a', '#8ac43a', '#ffd21f', '#6a2a8a']),
            ),
          )
      })
      for (let i = 0; i < 9; i++) {
        const x = p.rnd(20, 780)
        const s = p.rnd(0.9, 1.2)
        const c = p.pick(['#2a3a5a', '#7a2a3a', '#3a5a3a', '#5a4a2a', '#444'])
        p.add(
          g(
            [
              circle(0, -150, 16, '#e0b08a'),
              path('M-24 -130 Q0 -140 24 -130 L28 -40 L-28 -40 Z', c),
              rect(-20, -40, 16, 40, '#222'),
              rect(4, -40, 16, 40, '#222'),
            ],
            `transform="translate(${n(x)} ${n(600)}) scale(${n(s)})"`,
          ),
        )
      }
    },
  },
  {
    slug: 'ferris-wheel-at-dusk',
    draw: (p) => {
      sky(p, '#25295a', '#f6a86b', '#9a5a8a')
      const cx = 400
      const cy = 270
      const R = 210
      p.add(line(cx, cy, cx - 120, 560, '#2a2438', 8), line(cx, cy, cx + 120, 560, '#2a2438', 8))
      const w: string[] = [
        circle(cx, cy, R, 'none', 'stroke="#3a3450" stroke-width="6"'),
        circle(cx, cy, R - 16, 'none', 'stroke="#3a3450" stroke-width="3"'),
      ]
      for (let k = 0; k < 24; k++) {
        const a = (k / 24) * Math.PI * 2
        w.push(line(cx, cy, cx + Math.cos(a) * R, cy + Math.sin(a) * R, '#3a3450', 1.5))
      }
      for (let k = 0; k < 72; k++) {
        const a = (k / 72) * Math.PI * 2
        w.push(
          circle(cx + Math.cos(a) * R, cy + Math.sin(a) * R, 2.5, '#ffe08a', 'filter="url(#glow)"'),
        )
      }
      for (let k = 0; k < 16; k++) {
        const a = (k / 16) * Math.PI * 2
        const x = cx + Math.cos(a) * R
        const y = cy + Math.sin(a) * R
        w.push(
          line(x, y, x, y + 12, '#3a3450', 2),
          rect(
            x - 11,
            y + 12,
            22,
            18,
            p.pick(['#e63946', '#3a86ff', '#ffbe0b', '#06d6a0', '#ff006e']),
            'rx="4"',
          ),
        )
      }
      w.push(circle(cx, cy, 14, '#3a3450'))
      p.add(...w)
      for (let x = -20; x < 820; x += 110)
        p.add(
          poly(
            [
              [x, 560],
              [x + 50, 500],
              [x + 100, 560],
            ],
            p.pick(['#7a2a3a', '#2a3a6a', '#6a5a2a']),
          ),
          line(x + 50, 500, x + 50, 488, '#222', 2),
        )
      p.add(rect(0, 560, W, 40, '#140f1c'))
      for (let i = 0; i < 40; i++)
        p.add(
          circle(
            p.rnd(0, W),
            p.rnd(540, 590),
            2,
            p.pick(['#ffe08a', '#ff8a8a', '#8ad0ff']),
            'filter="url(#glow)"',
          ),
        )
    },
  },
  {
    slug: 'ringed-planet-in-space',
    draw: (p) => {
      p.add(rect(0, 0, W, H, '#020308'))
      p.add(
        ellipse(180, 160, 260, 120, '#3a2a6a', 'opacity="0.35" filter="url(#b20)"'),
        ellipse(650, 480, 200, 90, '#1a3a6a', 'opacity="0.35" filter="url(#b20)"'),
      )
      p.add(stars(p, 400, 600, '#ffffff', 1.3))
      const planet: string[] = [circle(0, 0, 150, '#d9b27a')]
      const clipPlanet = p.clip(circle(420, 300, 150, '#000'))
      for (let k = -6; k <= 6; k++)
        planet.push(
          rect(
            -160,
            k * 24 + p.rnd(-4, 4),
            320,
            p.rnd(8, 18),
            p.pick(['#c89a62', '#e6c894', '#b7824e', '#efd8a8']),
            'opacity="0.8"',
          ),
        )
      const rings = (op: number): string =>
        [
          ellipse(0, 0, 300, 62, 'none', `stroke="#e8d2a8" stroke-width="18" opacity="${op}"`),
          ellipse(0, 0, 270, 54, 'none', `stroke="#c8a878" stroke-width="10" opacity="${op}"`),
          ellipse(0, 0, 248, 48, 'none', `stroke="#a88a62" stroke-width="6" opacity="${op}"`),
        ].join('')
      const front = p.clip(rect(-400, 0, 800, 400, '#000'))
      p.add(g(rings(0.85), 'transform="translate(420 300) rotate(-18)"'))
      p.add(
        g(
          g(planet, 'transform="translate(420 300) rotate(-18)"'),
          `clip-path="${clipPlanet}" filter="url(#b1)"`,
        ),
      )
      p.add(
        circle(
          420,
          300,
          150,
          p.rad(
            [
              [0.5, '#000', 0],
              [1, '#000', 0.75],
            ],
            350,
            240,
            260,
          ),
        ),
      )
      p.add(g(g(rings(0.95), `clip-path="${front}"`), 'transform="translate(420 300) rotate(-18)"'))
      p.add(circle(130, 470, 26, '#9a9a9e'), circle(138, 462, 26, '#000', 'opacity="0.3"'))
    },
  },
]
