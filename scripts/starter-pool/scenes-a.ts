// Scenes of the starter pool, part one: coasts, mountains, deserts, night skies, structures.
import {
  type Drawing,
  H,
  W,
  circle,
  cloud,
  ellipse,
  g,
  halo,
  hills,
  line,
  n,
  path,
  pine,
  poly,
  radialDisc,
  rect,
  reflect,
  ridge,
  roundTree,
  shadedRect,
  sky,
  stars,
  waves,
} from './draw.ts'

export const scenesA: Drawing[] = [
  {
    slug: 'lighthouse-on-a-cliff',
    draw: (p) => {
      sky(p, '#6b7783', '#d2d7db', '#aab3ba')
      for (let i = 0; i < 8; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(30, 220), p.rnd(60, 120), '#59636d', 0.55))
      p.add(shadedRect(p, 0, 360, W, 240, '#6c7b80', '#27353a'))
      p.add(waves(p, 362, 600, '#dfe6e8', 220, 0.55))
      p.add(
        g(
          path(
            'M330 610 L352 500 L384 452 L410 392 L446 350 L500 330 L600 322 L810 300 L810 610 Z',
            p.lin([
              [0, '#4a433c'],
              [1, '#1a1715'],
            ]),
          ),
          'filter="url(#rough)"',
        ),
      )
      p.add(
        g(
          path('M446 350 L500 330 L600 322 L810 300 L810 316 L600 334 L500 342 Z', '#55603a'),
          'filter="url(#rough)"',
        ),
      )
      for (let i = 0; i < 14; i++)
        p.add(
          ellipse(
            p.rnd(310, 420),
            p.rnd(560, 600),
            p.rnd(20, 50),
            p.rnd(5, 10),
            '#f2f5f6',
            'opacity="0.7" filter="url(#b3)"',
          ),
        )
      p.add(
        poly(
          [
            [606, 122],
            [0, 40],
            [0, 210],
          ],
          '#fff6c8',
          'opacity="0.28" filter="url(#b8)"',
        ),
      )
      p.add(
        rect(640, 292, 62, 34, '#e9e9e4'),
        poly(
          [
            [634, 294],
            [708, 294],
            [671, 274],
          ],
          '#3b3f44',
        ),
      )
      p.add(
        poly(
          [
            [592, 330],
            [648, 330],
            [638, 150],
            [602, 150],
          ],
          p.lin(
            [
              [0, '#ffffff'],
              [0.6, '#e6e6e2'],
              [1, '#9fa3a6'],
            ],
            0,
            0,
            1,
            0,
          ),
        ),
      )
      p.add(
        poly(
          [
            [597, 260],
            [643, 260],
            [641, 232],
            [599, 232],
          ],
          '#b3342f',
        ),
        poly(
          [
            [601, 200],
            [639, 200],
            [638, 178],
            [602, 178],
          ],
          '#b3342f',
        ),
      )
      p.add(
        rect(592, 142, 56, 9, '#2c3033'),
        rect(606, 110, 28, 32, '#ffe9a0', 'filter="url(#glow)"'),
        poly(
          [
            [600, 111],
            [640, 111],
            [620, 88],
          ],
          '#2c3033',
        ),
      )
    },
  },
  {
    slug: 'waterfall-in-a-forest',
    draw: (p) => {
      sky(p, '#dbe9e0', '#9fc2a8')
      p.add(hills(p, 230, 60, 0.01, '#5d8468', 'filter="url(#b3)"'))
      p.add(
        g(
          path(
            'M250 430 L262 200 L300 130 L500 120 L540 190 L556 430 Z',
            p.lin([
              [0, '#5b5751'],
              [1, '#2d2b28'],
            ]),
          ),
          'filter="url(#rough)"',
        ),
      )
      p.add(
        path(
          'M368 126 L432 126 L456 440 L344 440 Z',
          p.lin([
            [0, '#e8f4f7'],
            [1, '#ffffff'],
          ]),
        ),
      )
      for (let i = 0; i < 40; i++) {
        const x = p.rnd(372, 428)
        p.add(
          line(
            x,
            128,
            x + (x - 400) * 0.35,
            440,
            p.pick(['#b7d3dc', '#ffffff', '#9dbcc8']),
            p.rnd(1, 3),
            `opacity="${n(p.rnd(0.4, 0.9))}"`,
          ),
        )
      }
      p.add(
        ellipse(
          400,
          470,
          230,
          50,
          p.lin([
            [0, '#3f7d78'],
            [1, '#1f4a47'],
          ]),
        ),
      )
      p.add(waves(p, 430, 520, '#e9f4f3', 60, 0.4))
      p.add(ellipse(400, 445, 150, 40, '#ffffff', 'opacity="0.75" filter="url(#b20)"'))
      for (let side = 0; side < 2; side++) {
        for (let i = 0; i < 22; i++) {
          const x = side === 0 ? p.rnd(-30, 270) : p.rnd(530, 830)
          const y = p.rnd(260, 560)
          p.add(
            pine(
              x,
              y,
              p.rnd(120, 260) * (0.6 + (y - 260) / 600),
              p.pick(['#1d3b26', '#23472d', '#173020']),
            ),
          )
        }
      }
      p.add(hills(p, 585, 30, 0.02, '#2d3b22', 'filter="url(#tex)"'))
    },
  },
  {
    slug: 'snowy-mountain-peak',
    draw: (p) => {
      sky(p, '#1e5aa8', '#b6d7f2')
      p.add(hills(p, 420, 80, 0.008, '#9bb0c6', 'opacity="0.8"'))
      const mountain = ridge(p, {
        base: 480,
        amp: 50,
        freq: 0.012,
        peaks: [
          { x: 420, h: 340, w: 340 },
          { x: 640, h: 170, w: 200 },
        ],
      })
      p.add(
        g(
          path(
            mountain,
            p.lin([
              [0, '#6f7682'],
              [1, '#3f4550'],
            ]),
          ),
          'filter="url(#tex)"',
        ),
      )
      const clip = p.clip(path(mountain, '#000'))
      const snowLine: string[] = []
      for (let x = -20; x <= 820; x += 20)
        snowLine.push(`${x} ${n(250 + Math.abs(x - 420) * 0.25 + p.rnd(-25, 25))}`)
      p.add(
        g(
          [
            path(`M-20 -10 L820 -10 L${snowLine.reverse().join(' L')} Z`, '#f4f7fb'),
            poly(
              [
                [420, 100],
                [820, 420],
                [820, 0],
              ],
              '#4a6a9a',
              'opacity="0.25"',
            ),
          ],
          `clip-path="${clip}"`,
        ),
      )
      p.add(hills(p, 540, 40, 0.02, '#1d3324'))
      for (let i = 0; i < 60; i++) {
        const x = p.rnd(-10, 810)
        p.add(pine(x, p.rnd(540, 610), p.rnd(50, 110), p.pick(['#14261a', '#1b3322'])))
      }
    },
  },
  {
    slug: 'desert-dunes-with-sun',
    draw: (p) => {
      sky(p, '#f0a04a', '#fde9b8', '#f8cf84')
      p.add(halo(p, 560, 190, 160, '#fffbe8', 0.9, '#fff3c0'))
      p.add(circle(560, 190, 52, '#fffdf2'))
      const colors = ['#e8a862', '#db8d47', '#c9733a', '#b55f2d']
      colors.forEach((color, i) => {
        const base = 330 + i * 70
        const ph = p.rnd(0, 6)
        const amp = 30 + i * 10
        const pts: string[] = []
        for (let x = -20; x <= 820; x += 10)
          pts.push(
            `${x} ${n(base + amp * Math.sin(x * (0.006 + i * 0.001) + ph) + 10 * Math.sin(x * 0.02 + ph))}`,
          )
        p.add(
          path(
            `M-20 610 L${pts.join(' L')} L820 610 Z`,
            p.lin([
              [0, color],
              [1, '#7a3d1c'],
            ]),
          ),
        )
        if (i === colors.length - 1) {
          for (let k = 0; k < 24; k++) {
            const y = base + 40 + k * 6
            p.add(
              path(
                `M-10 ${y} Q200 ${y - 12} 400 ${y} T810 ${y}`,
                'none',
                'stroke="#8e4a22" stroke-width="1.5" opacity="0.35"',
              ),
            )
          }
        }
      })
    },
  },
  {
    slug: 'erupting-volcano-at-night',
    draw: (p) => {
      sky(p, '#0c0606', '#4a1a10', '#1f0c0a')
      p.add(stars(p, 60, 250, '#f4d8c8', 1))
      for (let i = 0; i < 14; i++)
        p.add(
          ellipse(
            400 + p.rnd(-160, 200),
            p.rnd(20, 170),
            p.rnd(60, 140),
            p.rnd(40, 80),
            p.pick(['#2e2220', '#3a2826', '#4a2a20']),
            'opacity="0.85" filter="url(#b8)"',
          ),
        )
      p.add(
        radialDisc(p, 400, 215, 220, [
          [0, '#ff7a1a', 0.85],
          [0.4, '#c0300a', 0.35],
          [1, '#400', 0],
        ]),
      )
      for (let i = 0; i < 18; i++)
        p.add(
          ellipse(
            400 + p.rnd(-40, 40),
            p.rnd(90, 210),
            p.rnd(15, 40),
            p.rnd(25, 60),
            p.pick(['#ffb02e', '#ff6a00', '#ffe27a']),
            'opacity="0.8" filter="url(#b8)"',
          ),
        )
      p.add(
        g(
          path(
            'M-10 610 L140 480 L330 240 L372 218 L428 218 L470 238 L660 470 L810 560 L810 610 Z',
            p.lin([
              [0, '#241a18'],
              [1, '#0a0707'],
            ]),
          ),
          'filter="url(#rough)"',
        ),
      )
      for (const dir of [-1, 1, -1, 1]) {
        let x = 400 + dir * p.rnd(5, 30)
        let y = 225
        let d = `M${n(x)} ${y}`
        while (y < 560) {
          y += p.rnd(20, 40)
          x += dir * p.rnd(10, 38)
          d += ` L${n(x)} ${n(y)}`
        }
        p.add(
          path(
            d,
            'none',
            `stroke="#ff7b1c" stroke-width="${n(p.rnd(3, 6))}" stroke-linejoin="round" filter="url(#glow)"`,
          ),
        )
      }
      for (let i = 0; i < 70; i++)
        p.add(
          circle(
            400 + p.rnd(-150, 150),
            p.rnd(60, 230),
            p.rnd(1, 3),
            p.pick(['#ffd27a', '#ff8a2a']),
            'filter="url(#b1)"',
          ),
        )
    },
  },
  {
    slug: 'city-skyline-at-night',
    draw: (p) => {
      sky(p, '#070b24', '#34305c', '#181c44')
      p.add(stars(p, 50, 200, '#dde4ff', 1))
      const town: string[] = []
      let x = -10
      while (x < W) {
        const w = p.rnd(32, 74)
        const h = p.rnd(80, 330) * (Math.abs(x - 420) < 200 ? 1.1 : 0.8)
        const top = 430 - h
        town.push(rect(x, top, w - 3, h, p.pick(['#151a31', '#1b2140', '#101427', '#22284a'])))
        if (h > 260)
          town.push(
            line(x + w / 2, top, x + w / 2, top - 40, '#2a2f52', 3),
            circle(x + w / 2, top - 40, 3, '#ff4444', 'filter="url(#glow)"'),
          )
        for (let wy = top + 8; wy < 425; wy += 12) {
          for (let wx = x + 5; wx < x + w - 10; wx += 10) {
            if (p.rand() < 0.4)
              town.push(rect(wx, wy, 5, 6, p.pick(['#ffd98a', '#ffe9b3', '#cfe6ff'])))
          }
        }
        x += w
      }
      p.add(...town)
      p.add(rect(0, 430, W, 170, '#0a0c1e'))
      p.add(reflect(p, town.join(''), 430, 0.5))
      p.add(waves(p, 432, 600, '#ffd98a', 120, 0.35))
    },
  },
  {
    slug: 'suspension-bridge-over-a-river',
    draw: (p) => {
      sky(p, '#7fb0de', '#e6eff6')
      for (let i = 0; i < 5; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(40, 180), p.rnd(50, 90), '#ffffff', 0.8))
      p.add(hills(p, 400, 70, 0.01, '#7a96a8'))
      p.add(shadedRect(p, 0, 400, W, 200, '#4a7d9c', '#1c3c52'))
      p.add(waves(p, 402, 600, '#d8e8f2', 160, 0.45))
      const bridge: string[] = []
      const tower = (x: number): string =>
        [
          rect(x - 12, 110, 10, 380, '#b8322a'),
          rect(x + 2, 110, 10, 380, '#b8322a'),
          rect(x - 12, 150, 24, 8, '#b8322a'),
          rect(x - 12, 250, 24, 8, '#b8322a'),
          rect(x - 12, 340, 24, 10, '#b8322a'),
        ].join('')
      bridge.push(tower(230), tower(570))
      const cable = (x: number): number => {
        const t = (x - 230) / 340
        return (1 - t) * (1 - t) * 118 + 2 * t * (1 - t) * 578 + t * t * 118
      }
      for (let x = 240; x < 565; x += 12) bridge.push(line(x, cable(x), x, 368, '#9a2a22', 1))
      for (let x = 10; x < 225; x += 12)
        bridge.push(
          line(
            x,
            118 + ((230 - x) / 240) * 240 - ((230 - x) / 240) * ((230 - x) / 240) * 30,
            x,
            368,
            '#9a2a22',
            1,
          ),
        )
      for (let x = 580; x < 800; x += 12)
        bridge.push(
          line(
            x,
            118 + ((x - 570) / 240) * 240 - ((x - 570) / 240) * ((x - 570) / 240) * 30,
            x,
            368,
            '#9a2a22',
            1,
          ),
        )
      bridge.push(
        path(
          'M-10 368 Q110 150 230 118 Q400 578 570 118 Q690 150 810 368',
          'none',
          'stroke="#b8322a" stroke-width="4"',
        ),
      )
      bridge.push(rect(-10, 366, 820, 14, '#a52c25'), rect(-10, 380, 820, 4, '#5a1a16'))
      p.add(...bridge)
      p.add(reflect(p, bridge.join(''), 400, 0.35))
    },
  },
  {
    slug: 'sailing-boat-at-sea',
    draw: (p) => {
      sky(p, '#3f86d2', '#d3e8f7')
      for (let i = 0; i < 6; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(40, 240), p.rnd(50, 110), '#ffffff', 0.85))
      p.add(shadedRect(p, 0, 330, W, 270, '#2a6aa3', '#0b2c50'))
      p.add(waves(p, 332, 600, '#e4f0fa', 260, 0.55))
      p.add(
        g(
          [
            line(400, 130, 400, 425, '#3a2a1e', 4),
            path(
              'M404 135 Q470 260 520 410 L404 410 Z',
              p.lin(
                [
                  [0, '#ffffff'],
                  [1, '#d9dde2'],
                ],
                0,
                0,
                1,
                0,
              ),
            ),
            path(
              'M396 160 Q350 300 300 410 L396 410 Z',
              p.lin(
                [
                  [0, '#c7ccd3'],
                  [1, '#ffffff'],
                ],
                0,
                0,
                1,
                0,
              ),
            ),
            path('M280 415 L540 415 L510 450 L310 450 Z', '#1b2a45'),
            rect(300, 415, 230, 6, '#ffffff'),
          ],
          'transform="rotate(6 400 440)"',
        ),
      )
      for (let i = 0; i < 12; i++)
        p.add(
          ellipse(
            p.rnd(300, 530),
            p.rnd(448, 462),
            p.rnd(20, 40),
            4,
            '#ffffff',
            'opacity="0.7" filter="url(#b1)"',
          ),
        )
    },
  },
  {
    slug: 'hot-air-balloons',
    draw: (p) => {
      sky(p, '#79b9e8', '#fbead0', '#bcdcf0')
      p.add(hills(p, 470, 50, 0.01, '#7aa36a'))
      p.add(hills(p, 540, 40, 0.014, '#4d7f45'))
      const balloons: [number, number, number][] = [
        [200, 200, 130],
        [460, 150, 190],
        [650, 300, 100],
        [330, 380, 70],
        [90, 420, 50],
        [720, 110, 60],
      ]
      for (const [cx, cy, w] of balloons) {
        const h = w * 1.25
        const shape = `M${n(cx)} ${n(cy - h / 2)} C${n(cx + w * 0.72)} ${n(cy - h / 2)} ${n(cx + w * 0.62)} ${n(cy + h * 0.12)} ${n(cx + w * 0.14)} ${n(cy + h * 0.42)} L${n(cx - w * 0.14)} ${n(cy + h * 0.42)} C${n(cx - w * 0.62)} ${n(cy + h * 0.12)} ${n(cx - w * 0.72)} ${n(cy - h / 2)} ${n(cx)} ${n(cy - h / 2)} Z`
        const clip = p.clip(path(shape, '#000'))
        const palette = p.pick([
          ['#e63946', '#ffd166'],
          ['#3a86ff', '#ffffff'],
          ['#8338ec', '#ff006e'],
          ['#06d6a0', '#ffd166'],
          ['#fb5607', '#ffbe0b'],
        ])
        const gores: string[] = []
        for (let k = 6; k >= 1; k--)
          gores.push(ellipse(cx, cy, (w * 0.5 * k) / 6, h * 0.62, palette[k % 2] ?? '#fff'))
        gores.push(halo(p, cx - w * 0.2, cy - h * 0.2, w * 0.6, '#ffffff', 0.35))
        gores.push(rect(cx, cy - h, w, 2 * h, '#000', 'opacity="0.18"'))
        p.add(g(gores, `clip-path="${clip}"`))
        p.add(
          line(cx - w * 0.13, cy + h * 0.42, cx - w * 0.07, cy + h * 0.55, '#3a2a1e', 1),
          line(cx + w * 0.13, cy + h * 0.42, cx + w * 0.07, cy + h * 0.55, '#3a2a1e', 1),
        )
        p.add(rect(cx - w * 0.08, cy + h * 0.55, w * 0.16, w * 0.12, '#7a5230'))
      }
    },
  },
  {
    slug: 'windmill-in-a-field',
    draw: (p) => {
      sky(p, '#5d9fdc', '#e1eef8')
      for (let i = 0; i < 4; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(40, 200), p.rnd(60, 100), '#ffffff', 0.9))
      p.add(rect(0, 420, W, 180, '#5b9a3a'))
      const rows = [
        '#d62828',
        '#5b9a3a',
        '#f4c20d',
        '#5b9a3a',
        '#e85d9c',
        '#5b9a3a',
        '#d62828',
        '#5b9a3a',
        '#f4c20d',
      ]
      rows.forEach((c, i) => {
        const y0 = 420 + Math.pow(i / rows.length, 1.6) * 180
        const y1 = 420 + Math.pow((i + 1) / rows.length, 1.6) * 180
        p.add(rect(0, y0, W, y1 - y0 + 1, c, 'filter="url(#fine)"'))
      })
      p.add(
        path(
          ridge(p, { base: 425, amp: 12, freq: 0.03, bottom: 428 }),
          '#3f6e2c',
          'transform="translate(0 -8)"',
        ),
        rect(0, 418, W, 6, '#4a7d33'),
      )
      p.add(
        g(
          poly(
            [
              [350, 470],
              [450, 470],
              [432, 250],
              [368, 250],
            ],
            p.lin(
              [
                [0, '#7a543a'],
                [1, '#4d3322'],
              ],
              0,
              0,
              1,
              0,
            ),
          ),
          'filter="url(#tex)"',
        ),
      )
      p.add(
        path('M362 252 Q400 200 438 252 Z', '#3a2a22'),
        rect(388, 420, 24, 50, '#2a1c14'),
        rect(392, 320, 16, 20, '#f2e6c8'),
      )
      const sails: string[] = []
      for (let k = 0; k < 4; k++) {
        const s: string[] = [
          rect(-5, 0, 10, 190, '#5a3d28'),
          rect(5, 30, 34, 160, '#e8dfcc', 'opacity="0.85"'),
        ]
        for (let y = 40; y < 190; y += 16) s.push(line(5, y, 39, y, '#5a3d28', 2))
        s.push(line(22, 30, 22, 190, '#5a3d28', 2))
        sails.push(g(s, `transform="rotate(${20 + k * 90})"`))
      }
      p.add(g(sails, 'transform="translate(400 240)"'), circle(400, 240, 9, '#2a1c14'))
    },
  },
  {
    slug: 'pyramids-in-the-desert',
    draw: (p) => {
      sky(p, '#8fbde6', '#f4e4c2', '#cfe0ea')
      p.add(shadedRect(p, 0, 400, W, 200, '#e2c08a', '#c89a5a'))
      const pyr = (
        ax: number,
        ay: number,
        bl: number,
        br: number,
        fc: number,
        by: number,
      ): string =>
        g(
          [
            poly(
              [
                [ax, ay],
                [bl, by],
                [fc, by + 14],
              ],
              '#e9c68c',
            ),
            poly(
              [
                [ax, ay],
                [fc, by + 14],
                [br, by],
              ],
              '#a97a44',
            ),
          ],
          'filter="url(#tex)"',
        )
      p.add(pyr(640, 250, 540, 760, 610, 405), pyr(160, 230, 40, 300, 120, 410))
      p.add(pyr(400, 120, 200, 620, 360, 430))
      for (let i = 0; i < 30; i++)
        p.add(
          path(
            `M${n(p.rnd(-50, 800))} ${n(p.rnd(460, 600))} q60 -6 120 0`,
            'none',
            'stroke="#b8864a" stroke-width="2" opacity="0.4"',
          ),
        )
    },
  },
  {
    slug: 'ancient-stone-ruins',
    draw: (p) => {
      sky(p, '#86b7e4', '#f1e7d3')
      p.add(hills(p, 420, 60, 0.01, '#8e9a6a'))
      p.add(shadedRect(p, 0, 440, W, 160, '#bfa978', '#8e7a4e'))
      p.add(
        g(
          [
            rect(120, 430, 560, 18, '#d6c6a2'),
            rect(100, 448, 600, 18, '#c8b690'),
            rect(80, 466, 640, 20, '#b9a67e'),
          ],
          'filter="url(#tex)"',
        ),
      )
      const heights = [240, 240, 240, 150, 240, 90, 200]
      heights.forEach((h, i) => {
        const x = 150 + i * 80
        const top = 430 - h
        const col: string[] = [
          rect(
            x,
            top,
            38,
            h,
            p.lin(
              [
                [0, '#f3ead8'],
                [0.7, '#d8c9a8'],
                [1, '#a8997a'],
              ],
              0,
              0,
              1,
              0,
            ),
          ),
        ]
        for (let k = 1; k < 5; k++)
          col.push(line(x + k * 7.6, top + 4, x + k * 7.6, 430, '#b0a080', 1))
        if (h >= 200) col.push(rect(x - 6, top - 12, 50, 12, '#e8dcc2'))
        else
          col.push(
            poly(
              [
                [x, top],
                [x + 12, top - 10],
                [x + 22, top - 2],
                [x + 38, top - 14],
                [x + 38, top + 2],
                [x, top + 4],
              ],
              '#e8dcc2',
            ),
          )
        p.add(g(col, 'filter="url(#tex)"'))
      })
      p.add(g(rect(140, 168, 214, 24, '#e3d6ba'), 'filter="url(#tex)"'))
      p.add(
        g(
          [
            ellipse(250, 520, 50, 20, '#d8c9a8'),
            ellipse(600, 540, 44, 18, '#cdbd98'),
            rect(200, 500, 50, 40, '#d8c9a8'),
            rect(560, 522, 40, 36, '#cdbd98'),
          ],
          'filter="url(#tex)"',
        ),
      )
    },
  },
  {
    slug: 'castle-on-a-hill',
    draw: (p) => {
      sky(p, '#6d9fcf', '#dfe9f1')
      for (let i = 0; i < 7; i++)
        p.add(cloud(p, p.rnd(0, W), p.rnd(30, 220), p.rnd(60, 120), '#ffffff', 0.85))
      p.add(hills(p, 520, 40, 0.01, '#7ea35d'))
      p.add(
        g(
          path(
            'M-20 610 L-20 560 Q150 540 260 330 Q400 280 540 330 Q650 540 820 560 L820 610 Z',
            p.lin([
              [0, '#4f8a3a'],
              [1, '#2c5522'],
            ]),
          ),
          'filter="url(#tex)"',
        ),
      )
      const c: string[] = []
      const crenel = (x: number, y: number, w: number): string => {
        const out: string[] = []
        for (let k = x; k < x + w - 4; k += 12) out.push(rect(k, y - 8, 7, 8, '#8d8f90'))
        return out.join('')
      }
      c.push(rect(290, 220, 220, 110, '#9a9c9d'), crenel(290, 220, 220))
      c.push(rect(370, 150, 60, 180, '#a3a5a6'), crenel(370, 150, 60))
      for (const [x, top] of [
        [260, 170],
        [510, 180],
      ] as const) {
        c.push(
          rect(
            x,
            top,
            44,
            340 - top,
            p.lin(
              [
                [0, '#b3b5b6'],
                [1, '#6f7172'],
              ],
              0,
              0,
              1,
              0,
            ),
          ),
        )
        c.push(
          poly(
            [
              [x - 6, top],
              [x + 50, top],
              [x + 22, top - 70],
            ],
            '#2f4f8a',
          ),
        )
        c.push(
          line(x + 22, top - 70, x + 22, top - 100, '#333', 2),
          poly(
            [
              [x + 22, top - 100],
              [x + 46, top - 92],
              [x + 22, top - 84],
            ],
            '#c8102e',
          ),
        )
        c.push(rect(x + 17, top + 40, 10, 18, '#2a2a2a'))
      }
      c.push(path('M385 330 L385 290 Q400 270 415 290 L415 330 Z', '#2a2320'))
      for (let k = 0; k < 3; k++) c.push(rect(320 + k * 60, 250, 8, 14, '#2a2a2a'))
      p.add(g(c, 'filter="url(#tex)"'))
    },
  },
  {
    slug: 'steam-train',
    draw: (p) => {
      sky(p, '#94bfe3', '#eef3f6')
      p.add(hills(p, 380, 70, 0.008, '#8fa7a0'))
      p.add(shadedRect(p, 0, 420, W, 180, '#6e9b4a', '#3f6a2a'))
      p.add(path('M-10 470 L810 470 L810 500 L-10 500 Z', '#6b5a48', 'filter="url(#tex)"'))
      for (let x = -10; x < 810; x += 14) p.add(rect(x, 462, 8, 8, '#4a3a2a'))
      p.add(rect(-10, 458, 820, 4, '#555'))
      const coach = (x: number): string => {
        const out = [
          rect(x, 350, 150, 90, '#24563a', 'rx="6"'),
          rect(x, 345, 150, 10, '#1a2e22', 'rx="4"'),
        ]
        for (let k = 0; k < 5; k++) out.push(rect(x + 12 + k * 27, 365, 18, 22, '#e8e0b0'))
        out.push(circle(x + 30, 445, 14, '#222'), circle(x + 120, 445, 14, '#222'))
        return out.join('')
      }
      p.add(coach(560), coach(720))
      const loco: string[] = [
        rect(240, 330, 230, 74, '#1b1b1d', 'rx="30"'),
        rect(460, 280, 90, 150, '#18181a'),
        rect(450, 270, 110, 14, '#2a2a2c'),
        rect(478, 300, 54, 40, '#f3e2a8'),
        rect(268, 280, 30, 52, '#1b1b1d'),
        rect(260, 268, 46, 14, '#2a2a2c'),
        rect(350, 305, 40, 30, '#1b1b1d', 'rx="14"'),
        poly(
          [
            [240, 420],
            [210, 452],
            [250, 452],
          ],
          '#8a1c1c',
        ),
        rect(230, 400, 330, 18, '#202022'),
        rect(240, 352, 232, 6, '#b8922c'),
      ]
      for (const x of [320, 400, 480]) {
        loco.push(circle(x, 422, 34, '#a61c1c'), circle(x, 422, 24, '#1b1b1d'))
        for (let a = 0; a < 8; a++)
          loco.push(
            line(
              x,
              422,
              x + 24 * Math.cos((a * Math.PI) / 4),
              422 + 24 * Math.sin((a * Math.PI) / 4),
              '#a61c1c',
              3,
            ),
          )
      }
      loco.push(line(320, 430, 480, 430, '#c9c9c9', 5))
      p.add(...loco)
      for (let i = 0; i < 22; i++) {
        const t = i / 22
        p.add(
          circle(
            285 + t * 520 + p.rnd(-20, 20),
            250 - t * 170 + p.rnd(-25, 25),
            24 + t * 50,
            p.pick(['#ffffff', '#e9ecef', '#cfd4d9']),
            'opacity="0.85" filter="url(#b8)"',
          ),
        )
      }
    },
  },
  {
    slug: 'airplane-in-the-sky',
    draw: (p) => {
      sky(p, '#0f4d9c', '#a7cff0')
      for (let i = 0; i < 14; i++)
        p.add(cloud(p, p.rnd(-50, 850), p.rnd(500, 590), p.rnd(70, 130), '#ffffff', 0.95))
      p.add(
        path(
          'M-20 360 L360 300',
          'none',
          'stroke="#ffffff" stroke-width="7" opacity="0.8" filter="url(#b3)"',
        ),
      )
      p.add(
        path(
          'M-20 330 L330 276',
          'none',
          'stroke="#ffffff" stroke-width="6" opacity="0.7" filter="url(#b3)"',
        ),
      )
      p.add(
        g(
          [
            poly(
              [
                [420, 250],
                [330, 330],
                [370, 330],
                [500, 262],
              ],
              '#b9c2cc',
            ),
            path(
              'M250 250 Q250 228 300 226 L600 222 Q660 224 680 240 Q660 258 600 260 L300 262 Q250 262 250 250 Z',
              p.lin([
                [0, '#ffffff'],
                [1, '#c5ccd4'],
              ]),
            ),
            poly(
              [
                [268, 246],
                [240, 170],
                [270, 170],
                [320, 236],
              ],
              '#1f4f9c',
            ),
            poly(
              [
                [260, 242],
                [220, 248],
                [228, 256],
                [290, 252],
              ],
              '#cfd6dd',
            ),
            rect(395, 262, 60, 18, '#8d98a4', 'rx="9"'),
            path('M640 232 Q660 234 668 240 L640 240 Z', '#233'),
            poly(
              [
                [440, 244],
                [560, 180],
                [590, 180],
                [490, 248],
              ],
              '#d9dee4',
            ),
          ],
          'transform="rotate(-8 460 245)"',
        ),
      )
      for (let k = 0; k < 16; k++)
        p.add(g(circle(350 + k * 16, 240 - (k * 16 - 110) * 0.14 - 3, 2.5, '#40566f'), ''))
    },
  },
  {
    slug: 'rocket-launch',
    draw: (p) => {
      sky(p, '#172346', '#f08a4b', '#6e5a86')
      p.add(stars(p, 40, 200, '#fff', 1))
      p.add(
        radialDisc(p, 400, 420, 260, [
          [0, '#fff3c4', 0.9],
          [0.3, '#ffb347', 0.5],
          [1, '#ff7f2a', 0],
        ]),
      )
      const t: string[] = [rect(480, 110, 36, 380, 'none', 'stroke="#8c3a26" stroke-width="4"')]
      for (let y = 110; y < 490; y += 30)
        t.push(
          line(480, y, 516, y + 30, '#8c3a26', 2),
          line(516, y, 480, y + 30, '#8c3a26', 2),
          line(480, y, 516, y, '#8c3a26', 2),
        )
      t.push(rect(432, 160, 50, 6, '#8c3a26'), rect(432, 240, 50, 6, '#8c3a26'))
      p.add(...t)
      p.add(
        path('M378 350 Q400 470 422 350 Z', '#fff7d6', 'filter="url(#glow)"'),
        path('M372 340 Q400 560 428 340 Z', '#ffb63a', 'opacity="0.7" filter="url(#b8)"'),
      )
      p.add(
        rect(
          382,
          110,
          36,
          240,
          p.lin(
            [
              [0, '#ffffff'],
              [0.7, '#e3e6ea'],
              [1, '#9aa3ad'],
            ],
            0,
            0,
            1,
            0,
          ),
        ),
      )
      p.add(
        path('M382 110 Q400 50 418 110 Z', '#f2f4f6'),
        rect(382, 170, 36, 8, '#1c1c1c'),
        rect(382, 300, 36, 8, '#1c1c1c'),
      )
      p.add(
        rect(362, 190, 18, 160, '#d9dde2', 'rx="8"'),
        rect(420, 190, 18, 160, '#d9dde2', 'rx="8"'),
      )
      for (let i = 0; i < 60; i++) {
        const x = 400 + p.rnd(-420, 420)
        const y = 470 + p.rnd(-30, 120) + Math.abs(x - 400) * -0.1
        p.add(
          circle(
            x,
            y,
            p.rnd(30, 80),
            p.pick(['#f3eee6', '#d9d0c6', '#fbe0b8', '#b9ada2']),
            'opacity="0.9" filter="url(#b8)"',
          ),
        )
      }
    },
  },
  {
    slug: 'moon-over-a-lake',
    draw: (p) => {
      sky(p, '#040a1c', '#1d2c52')
      p.add(stars(p, 220, 380))
      p.add(halo(p, 560, 150, 140, '#fdf7d8', 0.5))
      p.add(
        circle(560, 150, 46, '#f5f1dc'),
        circle(548, 140, 9, '#ddd6b8', 'opacity="0.7"'),
        circle(572, 165, 6, '#ddd6b8', 'opacity="0.7"'),
        circle(575, 136, 5, '#ddd6b8', 'opacity="0.6"'),
      )
      p.add(shadedRect(p, 0, 385, W, 215, '#0d1836', '#050a18'))
      for (let i = 0; i < 70; i++) {
        const y = 388 + Math.pow(p.rand(), 0.8) * 212
        const w = 6 + (y - 385) * 0.35 * p.rnd(0.3, 1)
        p.add(
          ellipse(
            560 + p.rnd(-1, 1) * (15 + (y - 385) * 0.3),
            y,
            w,
            1.8,
            '#f7edc0',
            `opacity="${n(p.rnd(0.4, 0.9))}"`,
          ),
        )
      }
      const trees: string[] = [rect(0, 370, W, 16, '#03060d')]
      for (let x = -10; x < 820; x += p.rnd(8, 18))
        trees.push(pine(x, 386, p.rnd(30, 80), '#03060d'))
      p.add(...trees)
    },
  },
  {
    slug: 'starry-sky-and-milky-way',
    draw: (p) => {
      sky(p, '#02030a', '#0f1430')
      const band: string[] = []
      for (let i = 0; i < 30; i++)
        band.push(
          ellipse(
            p.rnd(-300, 300),
            p.rnd(-30, 30),
            p.rnd(60, 160),
            p.rnd(20, 50),
            p.pick(['#c9b8e8', '#e8dcc8', '#a8b8e8']),
            `opacity="${n(p.rnd(0.15, 0.35))}" filter="url(#b20)"`,
          ),
        )
      for (let i = 0; i < 14; i++)
        band.push(
          ellipse(
            p.rnd(-300, 300),
            p.rnd(-10, 10),
            p.rnd(30, 90),
            p.rnd(4, 10),
            '#050510',
            `opacity="${n(p.rnd(0.4, 0.7))}" filter="url(#b8)"`,
          ),
        )
      for (let i = 0; i < 600; i++)
        band.push(
          circle(
            p.rnd(-420, 420),
            (p.rand() - 0.5) * (p.rand() * 120),
            p.rnd(0.3, 1.2),
            '#fff',
            `opacity="${n(p.rnd(0.4, 1))}"`,
          ),
        )
      p.add(g(band, 'transform="translate(400 290) rotate(-35)"'))
      p.add(stars(p, 500, 560, '#ffffff', 1.6))
      for (let i = 0; i < 12; i++)
        p.add(circle(p.rnd(0, W), p.rnd(0, 480), 2.2, '#fff', 'filter="url(#glow)"'))
      p.add(
        path(
          ridge(p, { base: 560, amp: 70, freq: 0.006, peaks: [{ x: 620, h: 60, w: 180 }] }),
          '#020204',
        ),
      )
    },
  },
  {
    slug: 'campfire-at-night',
    draw: (p) => {
      p.add(rect(0, 0, W, H, '#050407'))
      for (let i = 0; i < 30; i++) {
        const x = p.rnd(-20, 820)
        p.add(
          rect(
            x,
            0,
            p.rnd(8, 24),
            470,
            '#1a120c',
            `opacity="${n(0.5 + 0.5 * (1 - Math.abs(x - 400) / 500))}"`,
          ),
        )
      }
      p.add(
        radialDisc(p, 400, 430, 420, [
          [0, '#ff9a3c', 0.55],
          [0.5, '#a0400f', 0.2],
          [1, '#000', 0],
        ]),
      )
      p.add(shadedRect(p, 0, 440, W, 160, '#3a2414', '#120a06'))
      p.add(
        ellipse(
          400,
          490,
          260,
          70,
          p.rad(
            [
              [0, '#c8642a', 0.8],
              [1, '#3a2414', 0],
            ],
            400,
            490,
            260,
            0.3,
          ),
        ),
      )
      for (let a = 0; a < 360; a += 24) {
        const r = (a * Math.PI) / 180
        p.add(
          ellipse(
            400 + Math.cos(r) * 120,
            480 + Math.sin(r) * 36,
            22,
            14,
            p.pick(['#6a625a', '#57504a', '#7a6f64']),
            'filter="url(#tex)"',
          ),
        )
      }
      p.add(
        rect(300, 466, 200, 20, '#3a2312', 'rx="9" transform="rotate(-12 400 476)"'),
        rect(300, 466, 200, 20, '#4a2c16', 'rx="9" transform="rotate(14 400 476)"'),
      )
      const flame = (x: number, w: number, h: number, color: string, blur: string): string =>
        path(
          `M${n(x - w)} 475 Q${n(x - w * 1.1)} ${n(475 - h * 0.5)} ${n(x + p.rnd(-10, 10))} ${n(475 - h)} Q${n(x + w * 1.1)} ${n(475 - h * 0.5)} ${n(x + w)} 475 Z`,
          color,
          `filter="url(#${blur})"`,
        )
      for (let i = 0; i < 6; i++)
        p.add(flame(400 + p.rnd(-60, 60), p.rnd(25, 45), p.rnd(120, 220), '#e03a0c', 'b3'))
      for (let i = 0; i < 6; i++)
        p.add(flame(400 + p.rnd(-40, 40), p.rnd(18, 30), p.rnd(90, 160), '#ff8c1a', 'b3'))
      for (let i = 0; i < 4; i++)
        p.add(flame(400 + p.rnd(-25, 25), p.rnd(10, 20), p.rnd(50, 100), '#ffe27a', 'b1'))
      for (let i = 0; i < 50; i++)
        p.add(
          circle(
            400 + p.rnd(-120, 120),
            p.rnd(120, 320),
            p.rnd(1, 2.5),
            '#ffb347',
            'filter="url(#glow)"',
          ),
        )
    },
  },
  {
    slug: 'thunderstorm-with-lightning',
    draw: (p) => {
      sky(p, '#16141f', '#4c4862', '#2b283a')
      for (let i = 0; i < 30; i++)
        p.add(
          ellipse(
            p.rnd(-50, 850),
            p.rnd(0, 260),
            p.rnd(80, 180),
            p.rnd(30, 70),
            p.pick(['#23212f', '#34324a', '#2b2a3c', '#47445c']),
            'opacity="0.9" filter="url(#b8)"',
          ),
        )
      p.add(halo(p, 420, 220, 280, '#c9c2ff', 0.5, '#8a80c0'))
      let x = 430
      let y = 150
      let d = `M${x} ${y}`
      const branches: string[] = []
      while (y < 480) {
        x += p.rnd(-40, 30)
        y += p.rnd(20, 45)
        d += ` L${n(x)} ${n(Math.min(y, 482))}`
        if (p.rand() < 0.35) {
          let bx = x
          let by = y
          let bd = `M${n(bx)} ${n(by)}`
          for (let k = 0; k < 4; k++) {
            bx += p.rnd(-40, 40)
            by += p.rnd(15, 30)
            bd += ` L${n(bx)} ${n(by)}`
          }
          branches.push(path(bd, 'none', 'stroke="#f2efff" stroke-width="1.5" filter="url(#glow)"'))
        }
      }
      p.add(
        path(d, 'none', 'stroke="#b9b0ff" stroke-width="14" opacity="0.5" filter="url(#b8)"'),
        ...branches,
        path(
          d,
          'none',
          'stroke="#ffffff" stroke-width="4" stroke-linejoin="bevel" filter="url(#glow)"',
        ),
      )
      p.add(shadedRect(p, 0, 480, W, 120, '#22241f', '#0b0c0a'))
      p.add(
        rect(600, 450, 60, 32, '#0c0c0e'),
        poly(
          [
            [592, 452],
            [668, 452],
            [630, 426],
          ],
          '#0c0c0e',
        ),
        rect(620, 462, 10, 10, '#e8c36a'),
      )
      p.add(roundTree(p, 700, 482, 90, '#0c0d0c', '#0c0d0c'))
      for (let i = 0; i < 260; i++) {
        const rx = p.rnd(-40, 840)
        const ry = p.rnd(0, 600)
        p.add(line(rx, ry, rx - 8, ry + 26, '#c8c8d8', 1, 'opacity="0.3"'))
      }
    },
  },
  {
    slug: 'tornado-over-a-plain',
    draw: (p) => {
      sky(p, '#4a5248', '#b6b89c', '#7d8574')
      for (let i = 0; i < 24; i++)
        p.add(
          ellipse(
            p.rnd(-50, 850),
            p.rnd(0, 150),
            p.rnd(100, 200),
            p.rnd(30, 60),
            p.pick(['#2f3530', '#3b423b', '#474f46']),
            'opacity="0.95" filter="url(#b8)"',
          ),
        )
      const funnel =
        'M280 150 Q380 170 540 150 Q500 230 470 290 Q440 360 430 420 Q425 470 420 500 L400 500 Q398 440 392 380 Q380 300 350 240 Q320 190 280 150 Z'
      p.add(
        g(
          path(
            funnel,
            p.lin(
              [
                [0, '#33362f'],
                [0.5, '#4a4c43'],
                [1, '#2c2d26'],
              ],
              0,
              0,
              1,
              0,
            ),
          ),
          'filter="url(#rough)"',
        ),
      )
      const swirl: string[] = []
      for (let k = 0; k < 14; k++) {
        const y = 170 + k * 24
        const hw = 120 * (1 - k / 15) + 10
        const cx = 410 + (1 - k / 14) * 10
        swirl.push(
          path(
            `M${n(cx - hw)} ${y} Q${n(cx)} ${y + 10} ${n(cx + hw)} ${y - 4}`,
            'none',
            'stroke="#25271f" stroke-width="2" opacity="0.6"',
          ),
        )
      }
      p.add(g(swirl, `clip-path="${p.clip(path(funnel, '#000'))}"`))
      p.add(shadedRect(p, 0, 490, W, 110, '#7a7446', '#4d4a2c'))
      for (let i = 0; i < 16; i++)
        p.add(
          circle(
            410 + p.rnd(-80, 80),
            490 + p.rnd(-30, 10),
            p.rnd(20, 45),
            p.pick(['#7d6a50', '#8c7a5c', '#5f5444']),
            'opacity="0.8" filter="url(#b8)"',
          ),
        )
      for (let x = 0; x < 300; x += 22) p.add(rect(x, 515 - x * 0.05, 3, 16, '#3a3024'))
      p.add(line(0, 519, 300, 504, '#3a3024', 1.5))
      p.add(
        rect(640, 484, 50, 26, '#6a2a22'),
        poly(
          [
            [634, 486],
            [696, 486],
            [665, 466],
          ],
          '#3a2a22',
        ),
        rect(700, 470, 14, 40, '#8a8a86'),
        ellipse(707, 470, 7, 4, '#8a8a86'),
      )
      for (let i = 0; i < 30; i++)
        p.add(rect(410 + p.rnd(-140, 140), p.rnd(300, 480), p.rnd(2, 5), p.rnd(2, 4), '#2a251c'))
    },
  },
  {
    slug: 'frozen-lake',
    draw: (p) => {
      sky(p, '#b9c8d6', '#f1f4f7')
      p.add(halo(p, 230, 230, 90, '#fffdf0', 0.8), circle(230, 230, 26, '#fffef6'))
      p.add(hills(p, 330, 50, 0.01, '#c8d3de'))
      const trees: string[] = [rect(0, 345, W, 20, '#e9eef2')]
      for (let x = -10; x < 820; x += p.rnd(10, 22))
        trees.push(pine(x, 362, p.rnd(40, 90), '#2c3e3a', '#f4f7f9'))
      p.add(...trees)
      p.add(shadedRect(p, 0, 360, W, 240, '#cfe2ee', '#8fb3cc'))
      for (let i = 0; i < 20; i++)
        p.add(
          ellipse(
            p.rnd(0, W),
            p.rnd(380, 600),
            p.rnd(40, 140),
            p.rnd(6, 18),
            '#ffffff',
            'opacity="0.7" filter="url(#b8)"',
          ),
        )
      for (let i = 0; i < 14; i++) {
        let x = p.rnd(0, W)
        let y = p.rnd(380, 600)
        let d = `M${n(x)} ${n(y)}`
        for (let k = 0; k < 7; k++) {
          x += p.rnd(-50, 50)
          y += p.rnd(-12, 20)
          d += ` L${n(x)} ${n(y)}`
        }
        p.add(
          path(
            d,
            'none',
            `stroke="${p.pick(['#ffffff', '#5f86a3'])}" stroke-width="${n(p.rnd(0.8, 2))}" opacity="0.8"`,
          ),
        )
      }
    },
  },
  {
    slug: 'red-rock-canyon',
    draw: (p) => {
      sky(p, '#4a8fd4', '#d2e6f4')
      p.add(
        g(
          path('M240 300 L300 260 L420 262 L470 240 L580 250 L600 330 L240 340 Z', '#c77a4c'),
          'filter="url(#tex)"',
        ),
      )
      p.add(
        path(
          'M372 600 Q420 500 396 420 Q380 370 400 330 L410 330 Q400 380 420 430 Q450 520 436 600 Z',
          p.lin([
            [0, '#6aa8c8'],
            [1, '#2f6f8f'],
          ]),
        ),
      )
      const bands = ['#b5542c', '#cf7641', '#9b4326', '#d98c55', '#a9482a', '#c2683a']
      for (const side of [0, 1]) {
        const shape =
          side === 0
            ? 'M-10 70 L240 140 L330 330 L380 600 L-10 610 Z'
            : 'M810 50 L560 150 L470 330 L440 600 L810 610 Z'
        const clip = p.clip(path(shape, '#000'))
        const layers: string[] = [path(shape, '#a4492a')]
        let y = 40
        let k = 0
        while (y < 620) {
          const h = p.rnd(18, 44)
          layers.push(
            path(
              `M-10 ${n(y)} L810 ${n(y + p.rnd(-6, 6))} L810 ${n(y + h)} L-10 ${n(y + h)} Z`,
              bands[k % bands.length] ?? '#a4492a',
            ),
          )
          y += h
          k++
        }
        layers.push(
          path(
            shape,
            p.lin(
              side === 0
                ? [
                    [0, '#000', 0],
                    [1, '#000', 0.35],
                  ]
                : [
                    [0, '#000', 0.3],
                    [1, '#000', 0],
                  ],
              0,
              0,
              1,
              0,
            ),
          ),
        )
        p.add(g(g(layers, `clip-path="${clip}"`), 'filter="url(#tex)"'))
      }
    },
  },
]
