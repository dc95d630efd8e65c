// Scenes of the starter pool, part five: landforms (mesas, salt flats, arches, terraces, karst)
// and the events that move land (sandstorm, avalanche).
import {
  type Drawing,
  W,
  backdrop,
  band,
  circle,
  cloud,
  ellipse,
  g,
  hills,
  line,
  n,
  path,
  poly,
  rect,
  reflect,
  roundTree,
  shadedRect,
  smoke,
  specks,
  waves,
} from './draw.ts'

/** A flat-topped butte with sheer sides and a talus slope, base at y. */
function butte(x: number, y: number, w: number, h: number, fill: string, shade: string): string {
  const top = y - h
  return [
    path(
      `M${n(x - w * 0.75)} ${n(y)} Q${n(x - w * 0.5)} ${n(y - h * 0.3)} ${n(x - w * 0.42)} ${n(y - h * 0.42)} L${n(x - w * 0.4)} ${n(top)} L${n(x + w * 0.4)} ${n(top)} L${n(x + w * 0.42)} ${n(y - h * 0.42)} Q${n(x + w * 0.5)} ${n(y - h * 0.3)} ${n(x + w * 0.75)} ${n(y)} Z`,
      fill,
      'filter="url(#rough)"',
    ),
    path(
      `M${n(x + w * 0.1)} ${n(top)} L${n(x + w * 0.4)} ${n(top)} L${n(x + w * 0.42)} ${n(y - h * 0.42)} Q${n(x + w * 0.5)} ${n(y - h * 0.3)} ${n(x + w * 0.75)} ${n(y)} L${n(x + w * 0.2)} ${n(y)} Z`,
      shade,
      'opacity="0.55"',
    ),
  ].join('')
}

export const scenesE: Drawing[] = [
  {
    slug: 'desert-buttes',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#2f6fc0'],
          [1, '#bcd8ee'],
        ]),
      )
      p.add(band(p, 400, '#d88a4a', '#a85a2a', 'filter="url(#tex)"'))
      p.add(butte(160, 405, 170, 230, '#b8542a', '#5a2010'))
      p.add(butte(560, 402, 260, 190, '#c0602e', '#5a2410'))
      p.add(butte(370, 400, 60, 170, '#a84a24', '#4a1a0a'))
      p.add(specks(p, 120, [0, 420, W, 180], '#5a6a2a', [2, 6], 0.8))
      p.add(
        path(
          'M380 610 Q420 500 400 400',
          'none',
          'stroke="#c87a40" stroke-width="30" opacity="0.5"',
        ),
      )
    },
  },
  {
    slug: 'salt-flat-at-dusk',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#4a5a9a'],
          [0.6, '#d8a0b8'],
          [1, '#f4d0c0'],
        ]),
      )
      p.add(hills(p, 300, 20, 0.01, '#6a5a7a'))
      p.add(band(p, 300, '#e8e0e8', '#fafafa'))
      for (let i = 0; i < 10; i++) {
        const t = i / 9
        const y = 305 + Math.pow(t, 1.8) * 300
        p.add(line(-20, y, W + 20, y + p.rnd(-6, 6), '#b8b0bc', 1 + t * 2, 'opacity="0.8"'))
        for (let x = p.rnd(-40, 0); x < W + 40; x += 30 + t * 120)
          p.add(
            line(
              x,
              y,
              x + p.rnd(-20, 20) * (1 + t),
              y + 8 + t * 60,
              '#b8b0bc',
              1 + t * 2,
              'opacity="0.8"',
            ),
          )
      }
    },
  },
  {
    slug: 'natural-rock-arch',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#1a58b0'],
          [1, '#9ccaf0'],
        ]),
      )
      p.add(hills(p, 470, 40, 0.01, '#a8b8c8', '', [{ x: 420, h: 60, w: 120 }]))
      p.add(path('M340 420 L380 400 L430 430 L470 405 L520 440 Z', '#f4f6f8', 'opacity="0.8"'))
      p.add(
        path(
          'M60 620 L70 330 Q90 120 400 110 Q700 120 720 340 L730 620 L610 620 L600 380 Q590 250 400 250 Q220 250 210 380 L200 620 Z',
          p.lin([
            [0, '#e08a4a'],
            [1, '#a04a20'],
          ]),
          'filter="url(#rough)"',
        ),
      )
      p.add(
        path(
          'M210 380 Q220 250 400 250 Q590 250 600 380 L590 300 Q560 240 400 236 Q240 240 214 300 Z',
          '#6a2a10',
          'opacity="0.6"',
        ),
      )
      p.add(band(p, 540, '#c8783c', '#8a4420', 'filter="url(#tex)"'))
    },
  },
  {
    slug: 'rice-terraces-on-a-hillside',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#c8d8d0'],
          [1, '#eef2ee'],
        ]),
      )
      p.add(hills(p, 200, 60, 0.006, '#9ab0a0', 'filter="url(#b3)"'))
      for (let i = 0; i < 16; i++) {
        const y = 180 + i * 28 + i * i * 0.6
        const pts: string[] = []
        for (let x = -20; x <= W + 20; x += 20)
          pts.push(`${x} ${n(y + Math.sin(x / 110 + i * 0.3) * 40 + (x / W) * 30)}`)
        p.add(path(`M${pts.join(' L')} L${W + 20} 620 L-20 620 Z`, i % 2 ? '#6aa83a' : '#7ab84a'))
        p.add(
          path(`M${pts.join(' L')}`, 'none', `stroke="#5a4a2a" stroke-width="${n(2 + i * 0.4)}"`),
        )
        p.add(
          path(
            `M${pts.join(' L')}`,
            'none',
            'stroke="#c8e0a0" stroke-width="1" opacity="0.6" transform="translate(0 4)"',
          ),
        )
      }
    },
  },
  {
    slug: 'hoodoo-rock-spires',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#5a90d0'],
          [1, '#d8e8f4'],
        ]),
      )
      p.add(hills(p, 170, 20, 0.01, '#e0c8a8'))
      for (let row = 0; row < 7; row++) {
        const t = row / 6
        const base = 200 + t * 420
        const h = 40 + t * 200
        const w = 8 + t * 36
        for (let x = p.rnd(-20, 0); x < W + 20; x += w * p.rnd(0.9, 1.4)) {
          const hh = h * p.rnd(0.6, 1.1)
          p.add(
            path(
              `M${n(x - w / 2)} ${n(base)} L${n(x - w * 0.35)} ${n(base - hh * 0.7)} Q${n(x - w * 0.45)} ${n(base - hh)} ${n(x)} ${n(base - hh)} Q${n(x + w * 0.45)} ${n(base - hh)} ${n(x + w * 0.35)} ${n(base - hh * 0.7)} L${n(x + w / 2)} ${n(base)} Z`,
              p.lin([
                [0, p.pick(['#f0c8a0', '#e8a070', '#f4e0c8'])],
                [0.5, p.pick(['#d8743a', '#e08a4a'])],
                [1, '#a84a24'],
              ]),
            ),
          )
        }
        if (row > 2)
          for (let k = 0; k < 3; k++)
            p.add(ellipse(p.rnd(0, W), base - 4, 10 + t * 10, 14 + t * 16, '#2e4a2a'))
      }
    },
  },
  {
    slug: 'sandstorm-over-a-desert-road',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#6a7a8a'],
          [1, '#d8b080'],
        ]),
      )
      for (let i = 0; i < 10; i++)
        p.add(
          smoke(
            p,
            i * 90 - 20,
            360,
            p.rnd(80, 130),
            p.pick(['#c87a3a', '#b86a2a', '#d88a4a']),
            p.rnd(-30, 30),
            0.9,
          ),
        )
      p.add(rect(0, 260, W, 140, '#c87a3a', 'opacity="0.7" filter="url(#b20)"'))
      p.add(band(p, 390, '#d8a060', '#a8703a', 'filter="url(#fine)"'))
      p.add(
        poly(
          [
            [390, 390],
            [410, 390],
            [560, 620],
            [240, 620],
          ],
          '#4a4440',
        ),
      )
      p.add(
        poly(
          [
            [399, 392],
            [401, 392],
            [406, 620],
            [394, 620],
          ],
          '#e8d070',
        ),
      )
      for (let i = 0; i < 7; i++) {
        const t = i / 6
        const x = 440 + t * 320
        const y = 395 + t * 190
        p.add(line(x, y, x, y - 20 - t * 130, '#3a2a1a', 2 + t * 4))
        p.add(
          line(
            x - 6 - t * 20,
            y - 18 - t * 120,
            x + 6 + t * 20,
            y - 18 - t * 120,
            '#3a2a1a',
            2 + t * 3,
          ),
        )
      }
      p.add(specks(p, 300, [0, 300, W, 300], '#e8b070', [0.8, 2], 0.6))
    },
  },
  {
    slug: 'avalanche-on-a-mountain',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#2e6ab8'],
          [1, '#c8def0'],
        ]),
      )
      p.add(
        path(
          'M-20 620 L-20 400 L180 200 L330 60 L420 140 L560 110 L820 330 L820 620 Z',
          p.lin([
            [0, '#f4f8fc'],
            [1, '#aabccc'],
          ]),
        ),
      )
      p.add(
        path(
          'M330 60 L420 140 L470 400 L380 300 Z',
          '#6a7a8a',
          'opacity="0.6" filter="url(#rough)"',
        ),
      )
      p.add(
        path(
          'M560 110 L820 330 L820 420 L640 260 Z',
          '#8a9aa8',
          'opacity="0.5" filter="url(#rough)"',
        ),
      )
      for (let i = 0; i < 7; i++)
        p.add(smoke(p, 300 + i * 30, 220 + i * 60, 50 + i * 12, '#ffffff', 80, 0.95))
      p.add(smoke(p, 520, 560, 120, '#f4f8fc', 120, 0.9))
      p.add(band(p, 560, '#2e4a3a', '#1a2e24'))
    },
  },
  {
    slug: 'rolling-hills-with-cypresses',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#8ab0d8'],
          [1, '#f4e2c0'],
        ]),
      )
      const tones = ['#a8b878', '#c8b868', '#8aac58', '#b8a850', '#6a9a40']
      tones.forEach((c, i) =>
        p.add(hills(p, 250 + i * 75, 60, 0.004 + i * 0.001, c, 'filter="url(#fine)"')),
      )
      p.add(
        path(
          'M380 620 Q300 520 420 460 Q520 410 460 350 Q420 320 480 290',
          'none',
          'stroke="#e8d8b0" stroke-width="10" opacity="0.9"',
        ),
      )
      for (let i = 0; i < 12; i++) {
        const t = i / 11
        const x = 480 - t * 60 + Math.sin(t * 6) * 60
        const y = 290 + t * 320
        const h = 20 + t * 140
        p.add(ellipse(x + 30 + t * 30, y - h / 2, h * 0.12, h / 2, '#1e3a1a'))
      }
    },
  },
  {
    slug: 'karst-peaks-by-a-river',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#d8e0e4'],
          [1, '#b8c8cc'],
        ]),
      )
      const peaks: string[] = []
      const tones = ['#a8b8b4', '#7a9a8a', '#4e7a5e', '#2e5a3e']
      tones.forEach((c, i) => {
        for (let k = 0; k < 4; k++) {
          const x = k * 230 + p.rnd(-30, 80) + (i % 2) * 110 - 40
          const w = 28 + i * 16
          const h = 170 + i * 55 + p.rnd(-30, 30)
          const base = 380
          peaks.push(
            path(
              `M${n(x - w)} ${base} C${n(x - w * 0.95)} ${n(base - h * 0.8)} ${n(x - w * 0.7)} ${n(base - h)} ${n(x)} ${n(base - h)} C${n(x + w * 0.7)} ${n(base - h)} ${n(x + w * 0.95)} ${n(base - h * 0.8)} ${n(x + w)} ${base} Z`,
              c,
            ),
          )
        }
        peaks.push(rect(0, 300 - i * 10, W, 90, '#e8eef0', 'opacity="0.35" filter="url(#b20)"'))
      })
      p.add(peaks.join(''))
      p.add(shadedRect(p, -10, 380, W + 20, 230, '#9ab0aa', '#5a7a72'))
      p.add(reflect(p, peaks.join(''), 380, 0.4), waves(p, 385, 600, '#d8e4e4', 80, 0.35))
      p.add(
        g([rect(330, 470, 140, 12, '#8a6a3a'), line(420, 470, 440, 400, '#3a2a1a', 3)].join('')),
        circle(440, 396, 8, '#3a2a1a'),
      )
    },
  },
  {
    slug: 'crater-lake-in-a-volcano',
    draw: (p) => {
      p.add(
        backdrop(p, [
          [0, '#3a80d0'],
          [1, '#cfe4f4'],
        ]),
      )
      p.add(cloud(p, 200, 90, 70, '#ffffff', 0.8))
      p.add(hills(p, 230, 30, 0.01, '#8a7a6a'))
      p.add(
        ellipse(
          400,
          360,
          420,
          150,
          p.lin([
            [0, '#7a6a5a'],
            [1, '#5a4a3e'],
          ]),
          'filter="url(#tex)"',
        ),
      )
      p.add(
        ellipse(
          400,
          372,
          300,
          92,
          p.lin([
            [0, '#3ac0c0'],
            [1, '#1a8a9a'],
          ]),
        ),
      )
      p.add(ellipse(400, 360, 300, 80, 'none', 'stroke="#a8e8e8" stroke-width="2" opacity="0.4"'))
      p.add(
        path(
          'M-20 620 L-20 430 Q400 560 820 430 L820 620 Z',
          p.lin([
            [0, '#6a5a4a'],
            [1, '#3a2e24'],
          ]),
          'filter="url(#tex)"',
        ),
      )
      for (let i = 0; i < 20; i++)
        p.add(circle(p.rnd(0, W), p.rnd(500, 600), p.rnd(3, 10), '#2a2018'))
      p.add(roundTree(p, 700, 480, 40, '#3a5a2a'))
    },
  },
]
