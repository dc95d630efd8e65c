// Every route of spec §2 as a visitor, a signed-in user and an administrator: the texts each
// of them sees, no console errors or failed requests, and no serious or critical axe-core
// violations. Plus the shared overlays (side menu, sign-in dialog, toast) per role.
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { seriousViolations } from './a11y.ts'
import { adminPhoneOf, codeSentTo, newPhone, signIn } from './accounts.ts'
import { watchProblems, withBrowser } from './browser.ts'

/** This file's administrator (accounts.ts says why each file has its own). */
const adminPhone = adminPhoneOf(import.meta.url)

const base = inject('baseUrl')
let browser: Browser

type Role = 'visitor' | 'user' | 'administrator'
const roles: Role[] = ['visitor', 'user', 'administrator']
/** The theme follows the system's colour scheme, so both are checked. */
type Scheme = 'light' | 'dark'
const visits: [Role, Scheme][] = [
  ['visitor', 'light'],
  ['user', 'light'],
  ['administrator', 'light'],
  // The administrator sees the most of every page; the dark palette is checked through them.
  ['administrator', 'dark'],
]

/** What a person sees on a page: its main heading, texts that must show and texts that must not. */
type Sight = { heading: string; texts?: string[]; absent?: string[] }
type Route = { path: string; title: RegExp; sees: Record<Role, Sight> }

const restricted: Sight = {
  heading: 'Access Restricted',
  texts: ['This feature is currently available to administrators only.', 'Return to Home'],
}
const denied = (role: Role, page: string): Sight => ({
  heading: 'Access Denied',
  texts: [
    role === 'visitor'
      ? 'You must be signed in as an administrator to view this page.'
      : 'You do not have administrator privileges to view this page.',
    'Return to Home',
  ],
  absent: [page],
})

const trainerSignedIn: Sight = {
  heading: 'Descriptor Training',
  texts: [
    'Start Training',
    'Stage 1-2',
    'Stage 2-3',
    'Stage 4-6',
    'Gestalts & Perceptions',
    'Training Protocol',
    'Export Your Descriptors',
    'Advanced Export',
  ],
  absent: ['Sign in required', 'Access all gestalts & perceptions', 'Go to Sign In'],
}
const homeSignedIn: Sight = {
  heading: 'Ideogram Training',
  texts: ['Basic Gestalts', 'Custom Gestalt', 'Add Gestalt'],
  absent: ['Sign in to unlock', 'Sign in to create custom gestalts'],
}
const sidereal: Sight = {
  heading: 'Sidereal Time Calculator',
  texts: ['Auto Mode', 'Custom Mode', 'Current UTC time'],
}
const exportSignedIn: Sight = {
  heading: 'Export Your Data',
  texts: ['Export CSV', 'UTF-8', 'semicolons'],
  absent: ['Sign In Required'],
}
const progressSignedIn: Sight = {
  heading: 'Your Progress',
  texts: ['Current streak', 'Cards due', 'Minutes per day', 'Delete training history'],
  absent: ['Sign in to keep your training history'],
}
const settingsSignedIn: Sight = {
  heading: 'Settings',
  texts: [
    'Interface language',
    'Download all my data',
    'Delete my training history',
    'Delete my account',
  ],
  absent: ['Sign In Required'],
}
const admin = (heading: string, texts: string[]): Sight => ({ heading, texts })

/**
 * Whether plain users may use the tachistoscope: the administrators' setting (admin panel →
 * Settings), 'admin' unless another test changed it in this run.
 */
let tachistoscopeForUsers = false

const tachistoscope = admin('Tachistoscope', [
  'Random Pictures',
  'People Pictures',
  'Get Picture',
  'Training Protocol',
])

const routes: Route[] = [
  {
    path: '/',
    title: /Ideogram/,
    sees: {
      visitor: {
        heading: 'Ideogram Training',
        texts: [
          'Basic Gestalts',
          'Add Water Gestalt',
          'Sign in to unlock',
          'Custom Gestalt',
          'Sign in to create custom gestalts',
        ],
      },
      user: homeSignedIn,
      administrator: homeSignedIn,
    },
  },
  ...['/descriptors', '/descriptor-training'].map((path) => ({
    path,
    title: /Descriptor Training/,
    sees: {
      visitor: {
        heading: 'Descriptor Training',
        texts: [
          'Start Training',
          'Stage 1-2',
          'Sign in required',
          'Access all gestalts & perceptions and create custom descriptors',
          'Training Protocol',
          'Go to Sign In',
        ],
        absent: ['Advanced Export'],
      },
      user: trainerSignedIn,
      administrator: trainerSignedIn,
    },
  })),
  {
    path: '/tachistoscope',
    title: /Tachistoscope/,
    sees: {
      visitor: restricted,
      // Unless the administrators opened it to users (see `sightOf`).
      user: restricted,
      administrator: tachistoscope,
    },
  },
  {
    path: '/tachistoscope-admin',
    title: /Tachistoscope Images/,
    sees: {
      visitor: denied('visitor', 'Upload Images'),
      user: denied('user', 'Upload Images'),
      administrator: admin('Tachistoscope Images', ['Upload Images', 'Open the Tachistoscope']),
    },
  },
  {
    path: '/sidereal-time',
    title: /Sidereal Time/,
    sees: { visitor: sidereal, user: sidereal, administrator: sidereal },
  },
  {
    path: '/admin',
    title: /Manage Your Custom Descriptors/,
    sees: {
      visitor: {
        heading: 'Manage Your Custom Descriptors',
        texts: ['Please log in to view your custom descriptors.'],
      },
      // A new user has added no words yet.
      user: {
        heading: 'Manage Your Custom Descriptors',
        texts: ["You haven't created any custom descriptors yet."],
        absent: ['Please log in'],
      },
      administrator: {
        heading: 'Manage Your Custom Descriptors',
        absent: ['Please log in'],
      },
    },
  },
  {
    path: '/admin/descriptors',
    title: /Descriptor Management/,
    sees: {
      visitor: denied('visitor', 'Descriptor Management'),
      user: denied('user', 'Descriptor Management'),
      administrator: admin('Descriptor Management', ['descriptors in total', 'Search']),
    },
  },
  {
    path: '/admin/pending-descriptors',
    title: /Pending Descriptors/,
    sees: {
      visitor: denied('visitor', 'Pending Descriptors'),
      user: denied('user', 'Pending Descriptors'),
      // Its list depends on what other journeys submitted, so only the heading is certain.
      administrator: admin('Pending Descriptors', []),
    },
  },
  {
    path: '/admin-panel',
    title: /Admin Panel/,
    sees: {
      visitor: denied('visitor', 'Admin Panel'),
      user: denied('user', 'Admin Panel'),
      administrator: admin('Admin Panel', [
        'Pending',
        'Images',
        'Descriptors',
        'Database',
        'Settings',
      ]),
    },
  },
  {
    path: '/export-data',
    title: /Export Your Data/,
    sees: {
      visitor: {
        heading: 'Sign In Required',
        texts: ['Please sign in to export your descriptors.'],
        absent: ['Export CSV'],
      },
      user: exportSignedIn,
      administrator: exportSignedIn,
    },
  },
  {
    path: '/progress',
    title: /Your Progress/,
    sees: {
      visitor: {
        heading: 'Your Progress',
        texts: ['Sign in to keep your training history'],
        absent: ['Current streak'],
      },
      user: progressSignedIn,
      administrator: progressSignedIn,
    },
  },
  {
    path: '/settings',
    title: /Settings/,
    sees: {
      visitor: {
        heading: 'Sign In Required',
        texts: ['Please sign in to change your settings and manage your data.'],
        absent: ['Delete my account'],
      },
      user: settingsSignedIn,
      administrator: settingsSignedIn,
    },
  },
  {
    path: '/no/such/page',
    title: /Page Not Found/,
    sees: Object.fromEntries(
      roles.map((role) => [role, { heading: 'Page Not Found', texts: ['Return to Home'] }]),
    ) as Record<Role, Sight>,
  },
]

function sightOf(route: Route, role: Role): Sight {
  if (route.path === '/tachistoscope' && role === 'user' && tachistoscopeForUsers) {
    return tachistoscope
  }
  return route.sees[role]
}

/** Waits until no spinner or progress bar is left, so axe sees the settled page. */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('[role="progressbar"]:visible').count(), { timeout: 45_000 })
    .toBe(0)
}

async function see(page: Page, sight: Sight): Promise<void> {
  await page
    .getByRole('heading', { level: 1, name: sight.heading, exact: true })
    .waitFor({ timeout: 45_000 })
  for (const text of sight.texts ?? []) {
    await page.getByText(text).first().waitFor({ timeout: 20_000 })
  }
  await settled(page)
  for (const text of sight.absent ?? []) {
    expect(await page.getByText(text).count(), `"${text}" is not shown`).toBe(0)
  }
}

async function newContext(colorScheme: Scheme = 'light'): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 1280, height: 900 },
    colorScheme,
    geolocation: { latitude: 52.52, longitude: 13.405 },
    permissions: ['geolocation'],
  })
}

withBrowser((launched) => (browser = launched))
beforeAll(async () => {
  const settings = (await (await fetch(`${base}/api/settings`)).json()) as {
    tachistoscopeAccess: string
  }
  tachistoscopeForUsers = settings.tachistoscopeAccess === 'user'
})

describe.each(visits)('every route of spec §2 for the %s, %s scheme', (role, scheme) => {
  let context: BrowserContext

  beforeAll(async () => {
    context = await newContext(scheme)
    if (role === 'visitor') return
    const page = await context.newPage()
    await page.goto(base + '/sidereal-time')
    await signIn(page, base, role === 'administrator' ? adminPhone : newPhone())
    await page.close()
  })
  afterAll(async () => {
    await context?.close()
  })

  it.each(routes.map((route) => [route.path, route] as const))(
    '%s',
    async (path, route) => {
      const page = await context.newPage()
      const problems = watchProblems(page)
      await page.goto(base + path)
      await see(page, sightOf(route, role))
      expect(await page.title()).toMatch(route.title)
      // The page is painted in the scheme under test (the body's background, dark or light).
      const background = await page
        .locator('body')
        .evaluate((body) => body.ownerDocument.defaultView?.getComputedStyle(body).backgroundColor)
      const [r = 0, g = 0, b = 0] = (background?.match(/\d+/g) ?? []).map(Number)
      expect(r + g + b < 3 * 128 ? 'dark' : 'light').toBe(scheme)
      // The header names the account, or offers to sign in.
      const account = role === 'visitor' ? 'Sign In' : 'Sign Out'
      await page.getByRole('banner').getByRole('button', { name: account }).waitFor()
      expect(await seriousViolations(page)).toEqual([])
      expect(problems, problems.join('\n')).toEqual([])
      await page.close()
    },
    120_000,
  )

  it('side menu: the entries of the role, accessible, the focus back on Escape', async () => {
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/sidereal-time')
    await page.getByRole('heading', { level: 1, name: 'Sidereal Time Calculator' }).waitFor()
    const menuButton = page.getByRole('button', { name: 'Open menu' })
    await menuButton.click()
    const nav = page.getByRole('navigation', { name: 'Main menu' })
    await nav.waitFor()
    const entries = (await nav.getByRole('link').allInnerTexts()).map((t) => t.trim())
    // Spec §2, Side menu: admin-only entries are hidden unless signed in as an administrator.
    // The descriptor trainer is open to everyone (issue [11]); a user's own pages need a user.
    const everyone = ['Ideogram Training', 'Descriptor Training']
    const own = ['Your Progress', 'My Custom Descriptors', 'Export Data', 'Settings']
    expect(entries).toEqual(
      role === 'administrator'
        ? [
            ...everyone,
            'Tachistoscope',
            'Sidereal Time',
            'Practice',
            ...own,
            'Admin Panel',
            'Pending Descriptors',
          ]
        : role === 'user'
          ? [...everyone, 'Sidereal Time', 'Practice', ...own]
          : [...everyone, 'Sidereal Time', 'Practice'],
    )
    expect(
      await nav.getByRole('link', { name: 'Sidereal Time' }).getAttribute('aria-current'),
    ).toBe('page')
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await nav.waitFor({ state: 'hidden' })
    // Focus goes back to the button that opened the menu.
    await expect.poll(() => menuButton.evaluate((b) => b.matches(':focus'))).toBe(true)
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })
})

describe('shared overlays and states as a visitor', () => {
  it('the sidereal page without location access has no serious violations', async () => {
    // No geolocation permission: auto mode asks for it (spec §2).
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/sidereal-time')
    await page.getByText('Location access needed for auto mode').waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Allow Location Access' }).waitFor()
    await settled(page)
    expect(await seriousViolations(page)).toEqual([])
    // The explanatory article, opened.
    await page.getByRole('button', { name: 'Read More' }).click()
    await page.getByRole('button', { name: 'Show Less' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it('the sign-in dialog at each step, and its toast, have no serious violations', async () => {
    const context = await newContext()
    const page = await context.newPage()
    const problems = watchProblems(page)
    await page.goto(base + '/descriptors')
    await page.getByRole('heading', { level: 1, name: 'Descriptor Training' }).waitFor()
    await settled(page)
    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click()
    const dialog = page.getByRole('dialog', { name: 'Unlock Premium Features' })
    await dialog.getByText('Or', { exact: true }).waitFor()
    expect(await seriousViolations(page)).toEqual([])

    await dialog.getByRole('button', { name: 'Continue with Phone' }).click()
    await dialog.getByLabel('Phone Number').waitFor()
    await dialog.getByRole('button', { name: '← Back to options' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])

    const phone = newPhone()
    await dialog.getByLabel('Phone Number').fill(phone)
    await dialog.getByLabel('Phone Number').press('Enter')
    // The code step with the toast that says the code is on its way.
    await page.getByText('Verification code has been sent to your phone').waitFor()
    await dialog.getByRole('button', { name: 'Use Different Number' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])

    await dialog.getByLabel('Verification Code').fill(await codeSentTo(base, phone))
    await dialog.getByRole('button', { name: 'Verify Code' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('banner').getByRole('button', { name: 'Sign Out' }).waitFor()
    // Signed in: Stage 2-3 and 4-6 open, and the page is still clean.
    await page.getByText('Advanced Export').waitFor()
    await settled(page)
    expect(await seriousViolations(page)).toEqual([])

    // The trainer's dialogs for a signed-in user: View All and Add Word.
    const [gestalt] = (await (await fetch(`${base}/api/gestalts?language=en`)).json()) as {
      name: string
    }[]
    if (!gestalt) throw new Error('no gestalts')
    await page.getByRole('button', { name: `View All ${gestalt.name}` }).click()
    const all = page.getByRole('dialog', { name: `All Descriptors - ${gestalt.name}` })
    await all.waitFor()
    await settled(page)
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await all.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: `Add Word to ${gestalt.name}` }).click()
    const add = page.getByRole('dialog', { name: 'Add Custom Word' })
    await add.waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await add.getByRole('button', { name: 'Cancel' }).click()
    await add.waitFor({ state: 'hidden' })
    expect(problems, problems.join('\n')).toEqual([])
    await context.close()
  })

  it.each(['/', '/descriptors', '/sidereal-time'])(
    '%s on a narrow phone screen has no serious violations',
    async (path) => {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        geolocation: { latitude: 52.52, longitude: 13.405 },
        permissions: ['geolocation'],
      })
      const page = await context.newPage()
      const problems = watchProblems(page)
      await page.goto(base + path)
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 45_000 })
      await settled(page)
      expect(await seriousViolations(page)).toEqual([])
      expect(problems, problems.join('\n')).toEqual([])
      await context.close()
    },
    120_000,
  )
})
