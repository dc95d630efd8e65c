// Scenes of the starter pool, part four: water in motion, space, and living nature (forests,
// fields, flowers).
import {
  type Pic,
  type Drawing,
  H,
  W,
  backdrop,
  band,
  circle,
  cloud,
  ellipse,
  g,
  glowDisc,
  halo,
  hills,
  leafTufts,
  line,
  n,
  path,
  person,
  pine,
  poly,
  radialDisc,
  rect,
  reflect,
  roundTree,
  shadedRect,
  smoke,
  specks,
  stars,
  waves,
} from './draw.ts'

/** A flower head of `petals` petals around a centre. */
function flower(
  x: number,
  y: number,
  r: number,
  petal: string,
  centre: string,
  petals = 12,
): string {
  const parts: string[] = []
  for (let i = 0; i < petals; i++) {
    const a = (i * 360) / petals
    parts.push(
      ellipse(
        x,
        y - r * 0.55,
        r * 0.22,
        r * 0.55,
        petal,
        `transform="rotate(${n(a)} ${n(x)} ${n(y)})"`,
      ),
    )
  }
  parts.push(circle(x, y, r * 0.38, centre))
  return parts.join('')
}

/** A tree trunk: a slightly tapering vertical band. */
function trunk(p: Pic, x: number, w: number, top: number, bottom: number, stops: string[]): string {
  return path(
    `M${n(x - w / 2)} ${n(bottom)} L${n(x - w * 0.4)} ${n(top)} L${n(x + w * 0.4)} ${n(top)} L${n(x + w / 2)} ${n(bottom)} Z`,
    p.lin(
      stops.map((c, i) => [i / (stops.length - 1), c] as [number, string]),
      0,
      0,
      1,
      0,
    ),
  )
}

/** A planet or moon: a shaded disc lit from one side. */
function globe(
  p: Pic,
  x: number,
  y: number,
  r: number,
  light: string,
  dark: string,
  lx = -0.4,
): string {
  return circle(
    x,
    y,
    r,
    p.rad(
      [
        [0, light],
        [0.75, dark],
        [1, '#000'],
      ],
      x + r * lx,
      y - r * 0.3,
      r * 1.5,
    ),
  )
}

export const scenesD: Drawing[] = [
  {
    slug: 'geyser-erupting',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#2f72c4'],
          [1, '#c4dcf0'],
        ]),
      )
      p.add(hills(p, 400, 30, 0.008, '#7a7a6a', 'opacity="0.7"'))
      p.add(band(p, 430, '#a8a088', '#6e6a58', 'filter="url(#tex)"'))
      p.add(smoke(p, 420, 150, 90, '#f2f4f6', 160, 0.85))
      p.add(
        path(
          'M380 440 Q390 250 410 90 Q420 70 430 90 Q450 250 460 440 Z',
          p.lin([
            [0, '#ffffff', 0.6],
            [1, '#e8f0f6'],
          ]),
          'filter="url(#b3)"',
        ),
      )
      p.add(specks(p, 200, [330, 60, 180, 200], '#ffffff', [1, 4]))
      p.add(smoke(p, 420, 440, 60, '#e8ecee', 0, 0.7))
      p.add(ellipse(420, 450, 80, 12, '#4a6a7a'))
      for (let x = 600; x < 720; x += 22) p.add(person(x, 480, 40, '#2a2a2a'))
    },
  },
  {
    slug: 'surfer-on-a-giant-wave',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#8ab8d8'],
          [1, '#dceaf2'],
        ]),
      )
      p.add(
        path(
          'M-20 600 L-20 300 Q150 120 420 80 Q640 60 720 200 Q650 150 600 220 Q560 300 640 420 L820 600 Z',
          p.lin([
            [0, '#2aa0a8'],
            [0.5, '#0e6a80'],
            [1, '#063a56'],
          ]),
        ),
      )
      p.add(
        path(
          'M420 80 Q640 60 720 200 Q650 150 600 220 Q620 150 420 100 Z',
          '#eaf6f8',
          'filter="url(#b3)"',
        ),
      )
      p.add(smoke(p, 700, 260, 60, '#f4fafc', 80, 0.9))
      p.add(
        path(
          'M600 220 Q560 300 640 420 L820 600 L820 300 Z',
          '#f0f8fa',
          'opacity="0.85" filter="url(#b8)"',
        ),
      )
      p.add(waves(p, 250, 600, '#a8dce0', 160, 0.4))
      p.add(
        path('M300 380 L350 372 L352 378 L302 386 Z', '#f0c020'),
        person(326, 376, 40, '#111', 0.6),
      )
      p.add(
        path(
          'M300 386 Q240 400 200 430',
          'none',
          'stroke="#ffffff" stroke-width="4" opacity="0.8"',
        ),
      )
    },
  },
  {
    slug: 'flooded-village-street',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#6a727a'],
          [1, '#aab0b4'],
        ]),
      )
      for (const [x, w, h, c] of [
        [-10, 170, 250, '#c8b89a'],
        [170, 140, 220, '#a88a6a'],
        [320, 160, 260, '#d0c4b0'],
        [490, 130, 210, '#b89a7a'],
        [630, 190, 240, '#c0aa8c'],
      ] as const) {
        const top = 400 - h
        p.add(
          rect(x, top, w, h + 60, c),
          poly(
            [
              [x - 10, top],
              [x + w / 2, top - 60],
              [x + w + 10, top],
            ],
            '#6a4a3a',
          ),
        )
        for (let wx = x + 20; wx < x + w - 30; wx += 50) {
          p.add(rect(wx, top + 40, 28, 36, '#3a4048'), rect(wx, top + 130, 28, 36, '#3a4048'))
        }
      }
      p.add(
        rect(
          -10,
          340,
          W + 20,
          270,
          p.lin([
            [0, '#8a6a44', 0.95],
            [1, '#5a4028'],
          ]),
        ),
      )
      p.add(
        reflect(p, rect(0, 200, W, 140, '#a89078'), 340, 0.25),
        waves(p, 345, 600, '#b8a080', 120, 0.4),
      )
      p.add(
        path('M330 470 L470 470 L450 495 L350 495 Z', '#2a5a8a'),
        person(380, 475, 50, '#d84a20'),
        person(420, 475, 46, '#f0c020'),
      )
      p.add(line(440, 455, 500, 500, '#5a3a20', 3))
      for (let i = 0; i < 150; i++) {
        const x = p.rnd(0, W)
        const y = p.rnd(0, H)
        p.add(line(x, y, x - 4, y + 18, '#dfe4e8', 1, 'opacity="0.4"'))
      }
    },
  },
  {
    slug: 'river-rapids-in-a-forest',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#b8d0dc'],
          [1, '#e4eef0'],
        ]),
      )
      for (let x = -10; x < W + 20; x += p.rnd(22, 40))
        p.add(pine(x, p.rnd(260, 300), p.rnd(160, 240), '#1e3a28'))
      p.add(band(p, 290, '#2a4a30', '#183020'))
      p.add(
        path(
          'M300 290 L500 290 Q620 420 820 470 L820 620 L-20 620 L-20 500 Q200 420 300 290 Z',
          p.lin([
            [0, '#6a8a8a'],
            [1, '#2a4a52'],
          ]),
        ),
      )
      for (let i = 0; i < 18; i++) {
        const t = i / 17
        const x = 380 + p.rnd(-1, 1) * (60 + t * 380)
        const y = 300 + t * 280
        p.add(
          ellipse(
            x - 30 - t * 40,
            y + 6 + t * 10,
            30 + t * 90,
            8 + t * 22,
            '#ffffff',
            'opacity="0.9" filter="url(#b3)"',
          ),
        )
        p.add(ellipse(x, y, 16 + t * 56, 10 + t * 34, '#2a2624', 'filter="url(#rough)"'))
        p.add(ellipse(x - 6, y - 6 - t * 10, 10 + t * 30, 4 + t * 12, '#5a5450', 'opacity="0.7"'))
      }
      p.add(waves(p, 300, 600, '#ffffff', 260, 0.7))
    },
  },
  {
    slug: 'fjord-between-steep-cliffs',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#7aa0c8'],
          [1, '#d8e6f0'],
        ]),
      )
      const left = 'M-20 380 L-20 40 L80 30 L180 120 L260 260 L330 380 Z'
      const right = 'M820 380 L820 20 L700 60 L600 150 L520 300 L470 380 Z'
      p.add(path('M300 380 L360 230 L420 200 L480 240 L520 380 Z', '#7a8a98'))
      p.add(
        path(
          left,
          p.lin([
            [0, '#4a5660'],
            [1, '#1e2a30'],
          ]),
          'filter="url(#rough)"',
        ),
      )
      p.add(
        path(
          right,
          p.lin([
            [0, '#52606a'],
            [1, '#222e34'],
          ]),
          'filter="url(#rough)"',
        ),
      )
      p.add(
        path('M-20 40 L80 30 L140 80 L60 90 Z', '#f4f6f8'),
        path('M820 20 L700 60 L660 100 L760 90 Z', '#f4f6f8'),
      )
      p.add(line(600, 170, 560, 380, '#e8f0f4', 3, 'opacity="0.8" filter="url(#b1)"'))
      p.add(shadedRect(p, -10, 380, W + 20, 230, '#20486a', '#0a2238'))
      p.add(reflect(p, [path(left, '#1e2a30'), path(right, '#222e34')].join(''), 380, 0.55))
      p.add(waves(p, 385, 600, '#6a8aa8', 80, 0.3))
    },
  },
  {
    slug: 'terraced-hot-springs',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#3a86d0'],
          [1, '#c8e2f4'],
        ]),
      )
      p.add(hills(p, 180, 30, 0.01, '#a8b098'))
      p.add(band(p, 190, '#ece8de', '#d8d2c4'))
      for (let row = 0; row < 8; row++) {
        const t = row / 7
        const y = 200 + Math.pow(t, 1.3) * 380
        const w = 60 + t * 150
        const h = 12 + t * 44
        for (let x = -w / 2 + (row % 2) * (w / 2); x < W + w; x += w) {
          p.add(ellipse(x, y, w * 0.52, h, '#f6f4ee'))
          p.add(
            ellipse(
              x,
              y - h * 0.15,
              w * 0.46,
              h * 0.72,
              p.lin([
                [0, '#7ae0ec'],
                [1, '#22a8c4'],
              ]),
            ),
          )
          p.add(
            path(
              `M${n(x - w * 0.5)} ${n(y + h * 0.2)} Q${n(x)} ${n(y + h * 1.3)} ${n(x + w * 0.5)} ${n(y + h * 0.2)}`,
              'none',
              `stroke="#d8d2c4" stroke-width="${n(1 + t * 3)}"`,
            ),
          )
        }
      }
      p.add(smoke(p, 600, 260, 40, '#ffffff', 40, 0.35))
    },
  },
  {
    slug: 'rain-on-a-pond',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#4a6a5a'],
          [1, '#12261c'],
        ]),
      )
      for (const [x, y, r] of [
        [120, 470, 110],
        [640, 520, 140],
        [700, 200, 70],
      ] as const) {
        p.add(
          ellipse(x, y, r, r * 0.45, '#3a7a2e'),
          path(`M${x} ${y} L${x + r} ${y - r * 0.1} L${x + r} ${y + r * 0.1} Z`, '#12261c'),
        )
      }
      for (let i = 0; i < 40; i++) {
        const t = p.rand()
        const x = p.rnd(0, W)
        const y = 60 + t * 520
        const s = 0.4 + t
        for (let k = 1; k <= 3; k++)
          p.add(
            ellipse(
              x,
              y,
              k * 14 * s,
              k * 5 * s,
              'none',
              `stroke="#d8e8e0" stroke-width="${n(1.4 * s)}" opacity="${n(0.7 / k)}"`,
            ),
          )
        p.add(circle(x, y - 4 * s, 2 * s, '#e8f4ee'))
      }
    },
  },
  {
    slug: 'glacier-calving-into-the-sea',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#8898a8'],
          [1, '#d8e0e6'],
        ]),
      )
      p.add(hills(p, 170, 40, 0.01, '#c8d4de'))
      const face =
        'M-20 380 L-20 170 L60 160 L140 180 L220 150 L300 175 L380 150 L460 170 L540 155 L620 180 L700 160 L820 170 L820 380 Z'
      p.add(
        path(
          face,
          p.lin([
            [0, '#eef6fa'],
            [0.5, '#a8d4ea'],
            [1, '#5aa0c8'],
          ]),
          'filter="url(#rough)"',
        ),
      )
      for (let x = 0; x < W; x += 26)
        p.add(line(x + p.rnd(-6, 6), 170, x + p.rnd(-10, 10), 380, '#6aaed0', 2, 'opacity="0.5"'))
      p.add(
        path('M380 150 L460 170 L470 330 L390 340 Z', '#d4eaf6', 'transform="rotate(-14 420 250)"'),
      )
      p.add(shadedRect(p, -10, 380, W + 20, 230, '#5a6e7e', '#2a3a48'))
      p.add(smoke(p, 420, 400, 80, '#f4f8fa', 0, 0.9), smoke(p, 340, 400, 50, '#eef4f8', -60, 0.8))
      p.add(specks(p, 120, [300, 300, 240, 100], '#ffffff', [1, 3.5]))
      p.add(waves(p, 400, 600, '#c8d8e2', 140, 0.5))
      p.add(ellipse(150, 470, 50, 10, '#e0eef6'), ellipse(620, 520, 70, 14, '#e0eef6'))
    },
  },
  {
    slug: 'meteor-shower-over-a-tent',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#04061a'],
          [0.55, '#1e2e64'],
          [1, '#7a6a9a'],
        ]),
      )
      p.add(stars(p, 260, 480))
      for (let i = 0; i < 16; i++) {
        const a = p.rnd(0.3, 1.3)
        const len = p.rnd(60, 200)
        const d = p.rnd(40, 320)
        const x = 620 - Math.cos(a) * d
        const y = 60 + Math.sin(a) * d
        p.add(
          line(
            x,
            y,
            x - Math.cos(a) * len,
            y + Math.sin(a) * len,
            '#eaf2ff',
            p.rnd(1, 2.5),
            'stroke-linecap="round" opacity="0.9" filter="url(#b1)"',
          ),
        )
      }
      p.add(hills(p, 500, 40, 0.005, '#06080e'))
      p.add(
        poly(
          [
            [330, 505],
            [400, 440],
            [470, 505],
          ],
          '#ffb060',
          'filter="url(#glow)"',
        ),
      )
      p.add(
        poly(
          [
            [392, 505],
            [400, 470],
            [408, 505],
          ],
          '#7a3a10',
        ),
      )
    },
  },
  {
    slug: 'blood-moon-eclipse',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#05050c'],
          [0.6, '#1a1030'],
          [1, '#5a3048'],
        ]),
      )
      p.add(stars(p, 220, 600))
      p.add(halo(p, 560, 200, 260, '#b84a22', 0.45))
      p.add(globe(p, 560, 200, 150, '#d0602e', '#5a1a0c', 0.2))
      for (let i = 0; i < 12; i++)
        p.add(circle(p.rnd(460, 660), p.rnd(110, 290), p.rnd(8, 26), '#4a140a', 'opacity="0.4"'))
      p.add(band(p, 520, '#030203', '#000'))
      for (const x of [60, 180, 720]) {
        p.add(line(x, 530, x, 330, '#020102', 14))
        for (let k = 0; k < 7; k++) {
          const a = -Math.PI / 2 + p.rnd(-1, 1)
          const l = p.rnd(60, 140)
          const y0 = 360 + k * 20
          p.add(line(x, y0, x + Math.cos(a) * l, y0 + Math.sin(a) * l, '#020102', 5))
        }
      }
    },
  },
  {
    slug: 'comet-over-snowy-mountains',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#0a1440'],
          [0.7, '#3a4a8a'],
          [1, '#c8907a'],
        ]),
      )
      p.add(stars(p, 120, 350))
      p.add(
        path(
          'M300 260 Q420 150 640 60 Q460 180 306 266 Z',
          p.lin(
            [
              [0, '#ffffff', 0.95],
              [1, '#a8c8ff', 0],
            ],
            0,
            1,
            1,
            0,
          ),
          'filter="url(#b3)"',
        ),
      )
      p.add(
        path(
          'M300 262 Q380 160 520 70',
          'none',
          'stroke="#c8e0ff" stroke-width="2" opacity="0.5" filter="url(#b1)"',
        ),
      )
      p.add(glowDisc(p, 300, 262, 6, '#ffffff', 4))
      p.add(
        hills(p, 500, 60, 0.006, '#2a3050', '', [
          { x: 200, h: 180, w: 160 },
          { x: 560, h: 220, w: 190 },
        ]),
      )
      p.add(hills(p, 560, 30, 0.01, '#10142a'))
    },
  },
  {
    slug: 'space-station-above-the-earth',
    draw: (p) => {
      p.add(rect(0, 0, W, H, '#000'))
      p.add(
        radialDisc(p, 400, 1500, 1100, [
          [0, '#1a4a9a'],
          [0.9, '#2a7ad0'],
          [1, '#9ad0ff'],
        ]),
      )
      p.add(
        circle(
          400,
          1500,
          1112,
          'none',
          'stroke="#7ab8ff" stroke-width="14" opacity="0.5" filter="url(#b8)"',
        ),
      )
      for (let i = 0; i < 14; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(470, 590), p.rnd(40, 90), '#ffffff', 0.7))
      p.add(
        g(
          [
            rect(250, 196, 300, 10, '#b0b4b8'),
            rect(370, 170, 60, 60, '#d8dadc'),
            rect(340, 185, 120, 30, '#c4c6c8'),
            ...[150, 210, 530, 590].flatMap((x) => [
              rect(x - 25, 110, 50, 180, '#b08a2a'),
              line(x, 110, x, 290, '#6a5010', 2),
              line(x - 25, 200, x + 25, 200, '#6a5010', 2),
            ]),
            line(150, 201, 590, 201, '#9a9ea2', 4),
          ].join(''),
          'transform="rotate(-8 400 200)"',
        ),
      )
    },
  },
  {
    slug: 'astronaut-on-a-spacewalk',
    draw: (p) => {
      p.add(rect(0, 0, W, H, '#000'))
      p.add(
        radialDisc(p, -100, 900, 560, [
          [0, '#163e80'],
          [0.92, '#3a8ae0'],
          [1, '#a8d8ff'],
        ]),
      )
      for (let i = 0; i < 8; i++)
        p.add(cloud(p, p.rnd(0, 350), p.rnd(430, 600), p.rnd(30, 60), '#ffffff', 0.6))
      p.add(path('M-20 120 Q200 60 420 260', 'none', 'stroke="#d8d8d8" stroke-width="2"'))
      p.add(
        g(
          [
            rect(400, 230, 120, 150, '#e8eaec', 'rx="30"'),
            rect(420, 250, 80, 60, '#c8cacc', 'rx="10"'),
            circle(470, 200, 52, '#f0f2f4'),
            circle(
              470,
              204,
              36,
              p.rad(
                [
                  [0, '#ffe080'],
                  [1, '#8a5a10'],
                ],
                458,
                190,
                50,
              ),
            ),
            line(405, 260, 330, 330, '#e8eaec', 34, 'stroke-linecap="round"'),
            line(515, 260, 590, 200, '#e8eaec', 34, 'stroke-linecap="round"'),
            line(430, 370, 400, 480, '#e8eaec', 38, 'stroke-linecap="round"'),
            line(490, 370, 540, 470, '#e8eaec', 38, 'stroke-linecap="round"'),
            rect(455, 300, 30, 14, '#d04a2a'),
          ].join(''),
          'transform="rotate(14 470 300)"',
        ),
      )
      p.add(glowDisc(p, 452, 176, 5, '#ffffff', 5))
    },
  },
  {
    slug: 'earthrise-over-the-moon',
    draw: (p) => {
      p.add(rect(0, 0, W, H, '#000'))
      p.add(globe(p, 430, 240, 90, '#7ab8f0', '#0a2a60', -0.5))
      p.add(path('M430 150 A90 90 0 0 1 430 330 A50 90 0 0 0 430 150 Z', '#000', 'opacity="0.85"'))
      for (let i = 0; i < 6; i++)
        p.add(
          ellipse(
            p.rnd(370, 450),
            p.rnd(190, 300),
            p.rnd(10, 24),
            p.rnd(4, 8),
            '#ffffff',
            'opacity="0.7" filter="url(#b1)"',
          ),
        )
      p.add(
        path(
          'M-20 380 Q200 350 420 372 Q640 392 820 360 L820 620 L-20 620 Z',
          p.lin([
            [0, '#8a8a88'],
            [1, '#3a3a38'],
          ]),
          'filter="url(#tex)"',
        ),
      )
      for (let i = 0; i < 26; i++) {
        const t = p.rand()
        const x = p.rnd(0, W)
        const y = 400 + t * 190
        const r = 6 + t * 40
        p.add(
          ellipse(x, y, r, r * 0.3, '#2a2a28', 'opacity="0.7"'),
          ellipse(x, y - r * 0.06, r * 0.9, r * 0.22, '#6a6a68', 'opacity="0.6"'),
        )
      }
    },
  },
  {
    slug: 'spiral-galaxy',
    draw: (p) => {
      p.add(rect(0, 0, W, H, '#020208'))
      p.add(stars(p, 120, 600))
      const arms: string[] = []
      for (let arm = 0; arm < 2; arm++) {
        for (let i = 0; i < 420; i++) {
          const t = i / 420
          const a = arm * Math.PI + t * 3.4 * Math.PI
          const r = 20 + t * 300
          const x = 400 + Math.cos(a) * r + p.rnd(-18, 18) * (0.4 + t)
          const y = 300 + Math.sin(a) * r * 0.62 + p.rnd(-14, 14) * (0.4 + t)
          arms.push(
            circle(
              x,
              y,
              p.rnd(1, 4) * (1 - t * 0.5),
              p.pick(['#9ac4ff', '#c8dcff', '#ffb0d0', '#ffffff']),
              `opacity="${n(p.rnd(0.3, 0.9))}"`,
            ),
          )
        }
      }
      p.add(g(arms, 'filter="url(#b1)"'))
      p.add(ellipse(400, 300, 260, 160, '#3a5aa0', 'opacity="0.25" filter="url(#b20)"'))
      p.add(
        ellipse(400, 300, 70, 46, '#fff2c8', 'filter="url(#b20)"'),
        ellipse(400, 300, 30, 20, '#ffffff', 'filter="url(#b8)"'),
      )
    },
  },
  {
    slug: 'tropical-rainforest',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#9ac8a0'],
          [1, '#1a3a22'],
        ]),
      )
      for (let layer = 0; layer < 3; layer++) {
        const c = ['#6a9a70', '#3a6a40', '#1e4426'][layer] ?? '#000'
        for (let x = p.rnd(-40, 40); x < W + 40; x += p.rnd(70, 150)) {
          p.add(trunk(p, x, 14 + layer * 12, -10, 610, [c, c]))
        }
        for (let i = 0; i < 40; i++)
          p.add(
            ellipse(
              p.rnd(0, W),
              p.rnd(0, 600),
              p.rnd(30, 80),
              p.rnd(14, 30),
              c,
              `opacity="0.8" transform="rotate(${n(p.rnd(-40, 40))} 0 0)"`,
            ),
          )
      }
      for (let i = 0; i < 5; i++) {
        const x = p.rnd(100, 700)
        p.add(
          poly(
            [
              [x, -10],
              [x + 60, -10],
              [x - 80, 610],
              [x - 200, 610],
            ],
            '#fffbe0',
            'opacity="0.12" filter="url(#b8)"',
          ),
        )
      }
      for (let i = 0; i < 10; i++) {
        const x = p.rnd(0, W)
        p.add(
          path(
            `M${n(x)} -10 Q${n(x + p.rnd(-30, 30))} 200 ${n(x + p.rnd(-20, 20))} ${n(p.rnd(250, 450))}`,
            'none',
            'stroke="#2a4a20" stroke-width="3"',
          ),
        )
      }
      leafTufts(p, 30, 480, 600, 40, 10, '#2e6a2a', -60, 30)
    },
  },
  {
    slug: 'bamboo-forest',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#d8ecc0'],
          [1, '#5a7a3a'],
        ]),
      )
      p.add(
        poly(
          [
            [340, 600],
            [460, 600],
            [420, 380],
            [380, 380],
          ],
          '#b8a878',
        ),
      )
      for (let layer = 0; layer < 3; layer++) {
        for (let i = 0; i < 26 - layer * 6; i++) {
          const x = p.rnd(-20, W + 20)
          if (layer === 2 && x > 330 && x < 470) continue
          const w = 8 + layer * 9 + p.rnd(0, 6)
          const c = ['#9ac070', '#6a9a40', '#3e7424'][layer] ?? '#000'
          p.add(rect(x - w / 2, -10, w, 620, c))
          p.add(rect(x - w / 2, -10, w * 0.3, 620, '#ffffff', 'opacity="0.15"'))
          for (let y = p.rnd(20, 90); y < 600; y += p.rnd(70, 110))
            p.add(rect(x - w / 2 - 1, y, w + 2, 3, '#2e5a1a', 'opacity="0.7"'))
        }
      }
      for (let i = 0; i < 80; i++)
        p.add(
          ellipse(
            p.rnd(0, W),
            p.rnd(0, 160),
            22,
            5,
            '#4a8a2a',
            `transform="rotate(${n(p.rnd(-40, 40))} 400 80)"`,
          ),
        )
    },
  },
  {
    slug: 'autumn-forest-path',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#f4d8a0'],
          [1, '#c87a3a'],
        ]),
      )
      for (let i = 0; i < 12; i++) {
        const x = i * 72 + p.rnd(-20, 20)
        const near = Math.abs(x - 400) > 200
        p.add(
          roundTree(
            p,
            x,
            470,
            near ? 460 : 300,
            p.pick(['#e86a1a', '#d8401a', '#f0a020', '#c83018']),
            '#3a2414',
          ),
        )
      }
      p.add(band(p, 460, '#b8642a', '#7a3a14'))
      p.add(
        poly(
          [
            [350, 460],
            [450, 460],
            [640, 610],
            [160, 610],
          ],
          '#d89a5a',
        ),
      )
      p.add(specks(p, 260, [0, 440, W, 170], '#f0a030', [2, 5], 0.9))
      p.add(specks(p, 120, [0, 440, W, 170], '#c0301a', [2, 5], 0.9))
      p.add(specks(p, 40, [0, 100, W, 300], '#f08a20', [2, 4], 0.8))
    },
  },
  {
    slug: 'savanna-with-acacia-trees',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#3a7ac8'],
          [1, '#cfe2f0'],
        ]),
      )
      for (let i = 0; i < 6; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(60, 220), p.rnd(60, 110), '#ffffff', 0.85))
      p.add(band(p, 360, '#d8b860', '#a87e30', 'filter="url(#fine)"'))
      for (const [x, y, s] of [
        [160, 420, 1.4],
        [560, 380, 0.7],
        [690, 400, 0.9],
        [330, 372, 0.4],
        [80, 366, 0.3],
      ] as const) {
        p.add(
          path(
            `M${x} ${y} L${x - 4 * s} ${y - 70 * s} M${x} ${y - 50 * s} L${x + 30 * s} ${y - 80 * s} M${x} ${y - 55 * s} L${x - 34 * s} ${y - 82 * s}`,
            'none',
            `stroke="#3a2a1a" stroke-width="${n(6 * s)}"`,
          ),
          ellipse(x, y - 86 * s, 90 * s, 16 * s, '#3e5a22'),
          ellipse(x - 20 * s, y - 94 * s, 50 * s, 10 * s, '#4e6a2a'),
        )
      }
    },
  },
  {
    slug: 'rainbow-over-green-hills',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#3a4048'],
          [1, '#8a9098'],
        ]),
      )
      const colors = ['#e84a3a', '#f08a2a', '#f0d040', '#5ab84a', '#3a7ad8', '#6a4ab8']
      colors.forEach((c, i) => {
        p.add(
          circle(
            400,
            560,
            330 - i * 9,
            'none',
            `stroke="${c}" stroke-width="9" opacity="0.75" filter="url(#b1)"`,
          ),
        )
        p.add(
          circle(
            400,
            560,
            400 + i * 8,
            'none',
            `stroke="${colors[5 - i]}" stroke-width="7" opacity="0.3" filter="url(#b1)"`,
          ),
        )
      })
      p.add(hills(p, 420, 60, 0.005, '#5a9a3a'))
      p.add(hills(p, 500, 50, 0.007, '#7ab84a'))
      for (const [x, h] of [
        [120, 90],
        [600, 70],
        [680, 110],
      ] as const)
        p.add(roundTree(p, x, 520, h, '#2e5a1e'))
    },
  },
  {
    slug: 'misty-pine-valley',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#dfe6ec'],
          [1, '#b8c6d2'],
        ]),
      )
      const tones = ['#a8b8c8', '#8aa0b4', '#6a849c', '#4a6680', '#2e4a62']
      tones.forEach((c, i) => {
        const base = 220 + i * 70
        p.add(hills(p, base, 60, 0.008, c))
        for (let x = -10; x < W + 20; x += p.rnd(12, 26))
          p.add(pine(x, base + p.rnd(-10, 30), p.rnd(30, 50) + i * 14, c))
        p.add(rect(0, base - 20, W, 80, '#e8eef2', 'opacity="0.35" filter="url(#b20)"'))
      })
      for (let x = -10; x < W; x += p.rnd(40, 80)) p.add(pine(x, 620, p.rnd(160, 260), '#14242e'))
    },
  },
  {
    slug: 'lavender-field',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#7a9ad0'],
          [0.7, '#f0c8a0'],
          [1, '#f8e0b0'],
        ]),
      )
      p.add(band(p, 330, '#6a5a8a', '#4a3a6a'))
      p.add(roundTree(p, 520, 336, 90, '#3a5a2a'))
      for (let k = -14; k <= 14; k++) {
        const x2 = 400 + k * 90
        p.add(
          poly(
            [
              [400 + k * 6, 332],
              [400 + k * 6 + 4, 332],
              [x2 + 30, 620],
              [x2 - 30, 620],
            ],
            '#8a5ac0',
          ),
        )
        p.add(
          poly(
            [
              [400 + k * 6 + 4, 332],
              [400 + k * 6 + 6, 332],
              [x2 + 45, 620],
              [x2 + 30, 620],
            ],
            '#4a6a2a',
          ),
        )
      }
      p.add(specks(p, 500, [0, 420, W, 190], '#b08ae0', [1.5, 4], 0.8))
    },
  },
  {
    slug: 'cherry-tree-in-blossom',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#8ab8e8'],
          [1, '#e8f2fa'],
        ]),
      )
      p.add(band(p, 470, '#8ac060', '#5a9040'))
      p.add(path('M380 480 Q370 380 400 300 L420 300 Q410 390 430 480 Z', '#3a2420'))
      for (const [x2, y2] of [
        [200, 180],
        [300, 140],
        [560, 160],
        [640, 230],
        [160, 280],
        [420, 90],
      ] as const)
        p.add(
          path(
            `M410 320 Q${(410 + x2) / 2} ${(320 + y2) / 2 - 40} ${x2} ${y2}`,
            'none',
            'stroke="#3a2420" stroke-width="10" stroke-linecap="round"',
          ),
        )
      for (let i = 0; i < 260; i++) {
        const a = p.rnd(0, Math.PI * 2)
        const r = Math.sqrt(p.rand()) * 260
        p.add(
          circle(
            410 + Math.cos(a) * r,
            210 + Math.sin(a) * r * 0.55,
            p.rnd(10, 26),
            p.pick(['#f8c8d8', '#f4a8c4', '#fce0ea', '#e890b0']),
            'opacity="0.85"',
          ),
        )
      }
      p.add(specks(p, 120, [100, 300, 620, 300], '#f8c0d4', [2, 4]))
    },
  },
  {
    slug: 'sunflower-field',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#1a5ac0'],
          [1, '#8ac0f0'],
        ]),
      )
      p.add(cloud(p, 600, 100, 70, '#ffffff', 0.9))
      p.add(band(p, 300, '#3a6a20', '#1e4a14'))
      for (let i = 0; i < 90; i++) {
        const t = Math.pow(i / 89, 1.6)
        const y = 300 + t * 300
        const r = 8 + t * 60
        const x = p.rnd(-30, W + 30)
        p.add(line(x, y, x, y + r * 2, '#2e5a1a', r * 0.18))
        p.add(flower(x, y, r, p.pick(['#f8c81a', '#f0b010', '#ffd430']), '#4a2a10', 16))
      }
    },
  },
  {
    slug: 'snowy-forest-in-winter',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#a8b8cc'],
          [1, '#e8eef4'],
        ]),
      )
      for (let layer = 0; layer < 3; layer++) {
        const c = ['#9aaabc', '#5a7082', '#2a4050'][layer] ?? '#000'
        for (let x = p.rnd(-30, 0); x < W + 30; x += p.rnd(40, 90) * (1 + layer * 0.5))
          p.add(pine(x, 380 + layer * 90 + p.rnd(-10, 10), 120 + layer * 120, c, '#f8fafc'))
      }
      p.add(band(p, 540, '#f4f6f8', '#dde4ea'))
      p.add(specks(p, 400, [0, 0, W, H], '#ffffff', [1, 3.5], 0.9))
    },
  },
  {
    slug: 'giant-redwood-trees',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#c8d8c0'],
          [1, '#4a6a40'],
        ]),
      )
      for (const [x, w, c] of [
        [90, 40, '#8a6a58'],
        [250, 60, '#8a5a44'],
        [700, 50, '#7a5a48'],
        [520, 150, '#7a3e26'],
        [160, 170, '#6a3420'],
      ] as const) {
        p.add(trunk(p, x, w, -10, 600, ['#3a1c10', c, '#3a1c10']))
        for (let i = 0; i < 12; i++)
          p.add(
            line(
              x - w * 0.3 + (i * w) / 20,
              -10,
              x - w * 0.3 + (i * w) / 20,
              600,
              '#2a1208',
              1,
              'opacity="0.35"',
            ),
          )
      }
      for (let i = 0; i < 4; i++) {
        const x = p.rnd(250, 600)
        p.add(
          poly(
            [
              [x, -10],
              [x + 50, -10],
              [x - 120, 610],
              [x - 200, 610],
            ],
            '#fff8d8',
            'opacity="0.18" filter="url(#b8)"',
          ),
        )
      }
      leafTufts(p, 40, 520, 610, 50, 12, '#3e7a2e', -70, 35)
    },
  },
  {
    slug: 'lotus-pond',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#1e2e2a'],
          [1, '#0c1a16'],
        ]),
      )
      for (let i = 0; i < 22; i++) {
        const t = p.rand()
        const x = p.rnd(-40, W + 40)
        const y = 80 + t * 520
        const r = 30 + t * 90
        p.add(ellipse(x, y, r, r * 0.42, p.pick(['#3a7a3a', '#4a8a3e', '#2e6a30'])))
        p.add(line(x, y, x + r * 0.9, y - r * 0.1, '#1e2e2a', 3))
      }
      for (const [x, y, s] of [
        [260, 300, 1.2],
        [520, 240, 1],
        [640, 420, 1.4],
        [140, 460, 0.9],
      ] as const) {
        p.add(line(x, y, x + 10, y + 120 * s, '#3a6a2a', 5))
        for (let k = -3; k <= 3; k++)
          p.add(
            ellipse(
              x,
              y - 26 * s,
              14 * s,
              40 * s,
              k % 2 ? '#f0a8c8' : '#e27aa8',
              `transform="rotate(${k * 22} ${x} ${y})"`,
            ),
          )
        p.add(circle(x, y - 8 * s, 10 * s, '#f0d050'))
      }
    },
  },
  {
    slug: 'toadstools-on-the-forest-floor',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#3a4a2a'],
          [1, '#1a2210'],
        ]),
      )
      for (let i = 0; i < 6; i++)
        p.add(trunk(p, p.rnd(0, W), p.rnd(20, 50), -10, 330, ['#2a2418', '#4a4030', '#2a2418']))
      p.add(band(p, 330, '#4a7a2a', '#2a4a14', 'filter="url(#tex)"'))
      p.add(specks(p, 200, [0, 330, W, 270], '#8a5a2a', [3, 7], 0.8))
      for (const [x, y, s] of [
        [260, 500, 1.4],
        [420, 470, 1],
        [560, 520, 1.7],
        [160, 430, 0.6],
      ] as const) {
        p.add(rect(x - 14 * s, y - 70 * s, 28 * s, 72 * s, '#f4eee0', 'rx="6"'))
        p.add(
          path(
            `M${x - 70 * s} ${y - 60 * s} Q${x} ${y - 150 * s} ${x + 70 * s} ${y - 60 * s} Z`,
            p.lin([
              [0, '#e8301a'],
              [1, '#a81a10'],
            ]),
          ),
        )
        for (let k = 0; k < 7; k++)
          p.add(ellipse(x + p.rnd(-45, 45) * s, y - p.rnd(70, 110) * s, 6 * s, 4 * s, '#fff8ee'))
      }
    },
  },
]
