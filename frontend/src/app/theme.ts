import { createTheme } from '@mui/material/styles'

/** A finger, not a mouse: touch targets are at least 44 × 44 px there (WCAG 2.5.5). */
const touch = '@media (pointer: coarse)'

const fontFamily = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Noto Sans"',
  '"Helvetica Neue"',
  'Arial',
  'sans-serif',
].join(',')

// Light and dark follow the system setting through a media query, so the first paint is right.
const makeTheme = () =>
  createTheme({
    cssVariables: { colorSchemeSelector: 'media' },
    colorSchemes: {
      light: {
        palette: {
          primary: { main: '#35608f' },
          secondary: { main: '#4f7a68' },
          background: { default: '#f5f7fa', paper: '#ffffff' },
          text: { primary: '#1c232c', secondary: '#4a5563' },
        },
      },
      dark: {
        palette: {
          primary: { main: '#9dbfe6' },
          secondary: { main: '#9cc5b1' },
          background: { default: '#111418', paper: '#181c22' },
          text: { primary: '#e6e9ee', secondary: '#a9b2bf' },
        },
      },
    },
    components: {
      // WCAG 2.4.7: every control shows where the keyboard focus is. MUI's own focus cue is a
      // faint ripple or a grey overlay (invisible on a selected chip), so every button base draws
      // a 2 px outline in the primary colour, drawn inside where a parent would clip it.
      MuiButtonBase: {
        styleOverrides: {
          root: ({ theme: t }) => ({
            '&.Mui-focusVisible': {
              outline: `2px solid ${t.vars.palette.primary.main}`,
              outlineOffset: 2,
            },
            [touch]: { minHeight: 44, minWidth: 44 },
          }),
        },
      },
      MuiInputBase: {
        styleOverrides: { root: { [touch]: { minHeight: 44 } } },
      },
      MuiFormControlLabel: {
        styleOverrides: { root: { [touch]: { minHeight: 44 } } },
      },
      MuiCardActionArea: {
        styleOverrides: {
          root: { '&.Mui-focusVisible': { outlineOffset: -3 } },
        },
      },
      MuiCssBaseline: {
        styleOverrides: (t) => ({
          'a:focus-visible, [tabindex]:focus-visible': {
            outline: `2px solid ${t.vars.palette.primary.main}`,
            outlineOffset: 2,
          },
        }),
      },
      // An unselected toggle's default colour (action.active) is 4.4:1 on the page background:
      // below WCAG AA. The secondary text colour is well above it in both schemes.
      MuiToggleButton: {
        styleOverrides: {
          root: ({ theme: t }) => ({ color: t.vars.palette.text.secondary }),
        },
      },
    },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily,
      h4: { fontWeight: 600, fontSize: '1.75rem', lineHeight: 1.25 },
      h6: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
  })

let made: ReturnType<typeof makeTheme> | undefined

/**
 * The app's theme, made on first use. Making it takes ~40 ms at a phone's speed (every colour of
 * both schemes becomes a CSS variable): the app's start asks for it in a task of its own rather
 * than with the evaluation of its modules (issue [12]).
 */
export function appTheme() {
  made ??= makeTheme()
  return made
}
