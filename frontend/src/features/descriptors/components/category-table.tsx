import AddIcon from '@mui/icons-material/Add'
import LockOpenIcon from '@mui/icons-material/LockOpen'
import {
  Box,
  Button,
  Checkbox,
  Chip,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material'
import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import { sampleWords, stageRange, type Category, type CategoryWords } from '../catalog.ts'

type CategoryTableProps = {
  categories: readonly Category[]
  words: ReadonlyMap<string, CategoryWords>
  loadingCategories: boolean
  loadingWords: boolean
  selected: ReadonlySet<string>
  onToggle: (category: Category) => void
  /** Signed in: 'Add Word' is offered. */
  canAddWords: boolean
  onViewAll: (category: Category) => void
  onAddWord: (category: Category) => void
  /** For visitors: categories of the stages they cannot use yet, shown blurred under the table. */
  lockedTeaser: readonly Category[] | null
  onUnlock: () => void
}

function SampleWords({ words, loading }: { words: CategoryWords | undefined; loading: boolean }) {
  const { t } = useTranslation('descriptors')
  if (loading && !words) {
    // A label needs a role to name: a plain <span> may not carry one (axe aria-prohibited-attr).
    return <Skeleton width="80%" role="progressbar" aria-label={t('loadingDescriptors')} />
  }
  const { shown, more } = sampleWords((words?.visible ?? []).map((d) => d.word))
  if (shown.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('categories.noDescriptors')}
      </Typography>
    )
  }
  return (
    <Typography variant="body2" component="span">
      {shown.join(', ')}
      {more > 0 ? (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 0.75 }}>
          {t('categories.more', { count: more })}
        </Typography>
      ) : null}
    </Typography>
  )
}

function Actions({
  category,
  canAddWords,
  onViewAll,
  onAddWord,
}: Pick<CategoryTableProps, 'canAddWords' | 'onViewAll' | 'onAddWord'> & { category: Category }) {
  const { t } = useTranslation('descriptors')
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
      <Button
        size="small"
        variant="outlined"
        onClick={() => onViewAll(category)}
        aria-label={t('categories.viewAllOf', { name: category.name })}
      >
        {t('categories.viewAll')}
      </Button>
      {canAddWords ? (
        <Button
          size="small"
          startIcon={<AddIcon />}
          onClick={() => onAddWord(category)}
          aria-label={t('categories.addWordTo', { name: category.name })}
        >
          {t('categories.addWord')}
        </Button>
      ) : null}
    </Stack>
  )
}

function LockedTeaser({
  categories,
  onUnlock,
}: {
  categories: readonly Category[]
  onUnlock: () => void
}) {
  const { t } = useTranslation('descriptors')
  return (
    <Box sx={{ position: 'relative', overflow: 'hidden', minHeight: 168 }}>
      <Box aria-hidden sx={{ filter: 'blur(4px)', userSelect: 'none', pointerEvents: 'none' }}>
        {categories.slice(0, 3).map((category) => (
          <Stack
            key={category.key}
            direction="row"
            spacing={2}
            sx={{ px: 2, py: 1.75, borderBottom: 1, borderColor: 'divider' }}
          >
            <Typography sx={{ flex: 2 }}>{category.name}</Typography>
            <Typography sx={{ flex: 1 }}>{t(`categoryType.${category.type}`)}</Typography>
            <Typography sx={{ flex: 1 }}>
              {t('stage', { range: stageRange(category.stage) })}
            </Typography>
          </Stack>
        ))}
      </Box>
      <Box
        sx={{
          position: 'absolute',
          inset: 0,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          p: 2,
          backdropFilter: 'blur(2px)',
          background: (theme) =>
            `linear-gradient(to bottom, transparent, ${theme.vars?.palette.background.paper ?? theme.palette.background.paper} 70%)`,
        }}
      >
        <Button
          variant="contained"
          startIcon={<LockOpenIcon />}
          onClick={onUnlock}
          sx={{ maxWidth: 440, whiteSpace: 'normal' }}
        >
          {t('categories.unlock')}
        </Button>
      </Box>
    </Box>
  )
}

function ColumnHeads() {
  const { t } = useTranslation('descriptors')
  return (
    <TableHead>
      <TableRow>
        <TableCell>{t('categories.columns.name')}</TableCell>
        <TableCell>{t('categories.columns.type')}</TableCell>
        <TableCell>{t('categories.columns.stage')}</TableCell>
        <TableCell sx={{ width: '40%' }}>{t('categories.columns.samples')}</TableCell>
        <TableCell>{t('categories.columns.actions')}</TableCell>
        <TableCell align="center" sx={{ width: 72 }}>
          {t('categories.columns.select')}
        </TableCell>
      </TableRow>
    </TableHead>
  )
}

/**
 * Placeholders while the categories load, the phone's cards and the table's rows both, the
 * screen's width choosing in CSS: the page is pre-rendered without knowing the screen, and the
 * first render that takes it over must draw the same.
 */
function LoadingCategories({ label }: { label: string }) {
  return (
    <>
      <Stack
        spacing={1.5}
        component="ul"
        aria-label={label}
        sx={{ p: 0, m: 0, display: { xs: 'flex', md: 'none' } }}
      >
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} component="li" variant="rounded" height={120} />
        ))}
      </Stack>
      <Paper variant="outlined" sx={{ overflow: 'hidden', display: { xs: 'none', md: 'block' } }}>
        <TableContainer>
          <Table aria-label={label}>
            <ColumnHeads />
            <TableBody>
              {[0, 1, 2, 3].map((i) => (
                <TableRow key={i}>
                  <TableCell colSpan={6}>
                    <Skeleton />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
    </>
  )
}

/**
 * The training categories: a table on wide screens, one card per category on a phone. Gestalts
 * come first, then perceptions, as given.
 */
export const CategoryTable = memo(function CategoryTable(props: CategoryTableProps) {
  const { categories, words, loadingCategories, loadingWords, selected, onToggle, lockedTeaser } =
    props
  const { t } = useTranslation('descriptors')
  const theme = useTheme()
  // Read at once: the placeholders the page is pre-rendered with do not depend on it.
  const narrow = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true })

  if (loadingCategories && categories.length === 0)
    return <LoadingCategories label={t('categories.label')} />
  const teaser =
    lockedTeaser && lockedTeaser.length > 0 ? (
      <LockedTeaser categories={lockedTeaser} onUnlock={props.onUnlock} />
    ) : null

  if (narrow) {
    return (
      <Stack spacing={1.5} component="ul" aria-label={t('categories.label')} sx={{ p: 0, m: 0 }}>
        {categories.map((category) => (
          <Paper
            key={category.key}
            component="li"
            variant="outlined"
            sx={{ listStyle: 'none', p: 2 }}
          >
            <Stack direction="row" sx={{ alignItems: 'flex-start', gap: 1 }}>
              <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                  {category.name}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
                  <Chip size="small" label={t(`categoryType.${category.type}`)} />
                  <Chip
                    size="small"
                    variant="outlined"
                    label={t('stage', { range: stageRange(category.stage) })}
                  />
                </Stack>
              </Box>
              <Checkbox
                checked={selected.has(category.key)}
                onChange={() => onToggle(category)}
                slotProps={{
                  input: { 'aria-label': t('categories.select', { name: category.name }) },
                }}
                sx={{ mt: -0.5, mr: -1 }}
              />
            </Stack>
            <Box sx={{ my: 1.5 }}>
              <SampleWords words={words.get(category.key)} loading={loadingWords} />
            </Box>
            <Actions category={category} {...props} />
          </Paper>
        ))}
        {teaser ? (
          <Paper component="li" variant="outlined" sx={{ listStyle: 'none', overflow: 'hidden' }}>
            {teaser}
          </Paper>
        ) : null}
      </Stack>
    )
  }

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <TableContainer>
        <Table aria-label={t('categories.label')}>
          <ColumnHeads />
          <TableBody>
            {categories.map((category) => (
              <TableRow key={category.key} hover selected={selected.has(category.key)}>
                <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
                  {category.name}
                </TableCell>
                <TableCell>{t(`categoryType.${category.type}`)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {t('stage', { range: stageRange(category.stage) })}
                </TableCell>
                <TableCell>
                  <SampleWords words={words.get(category.key)} loading={loadingWords} />
                </TableCell>
                <TableCell>
                  <Actions category={category} {...props} />
                </TableCell>
                <TableCell align="center" sx={{ py: 0 }}>
                  <Checkbox
                    checked={selected.has(category.key)}
                    onChange={() => onToggle(category)}
                    slotProps={{
                      input: { 'aria-label': t('categories.select', { name: category.name }) },
                    }}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {teaser}
    </Paper>
  )
})
