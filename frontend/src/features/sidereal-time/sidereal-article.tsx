import { Box, Button, Collapse, Link, Typography } from '@mui/material'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { slot, withElement } from './with-element.tsx'

// A bibliographic reference: cited as published, in every interface language.
const citationAuthors = 'Spottiswoode, S. J. P. (1997).'
const citationTitle =
  'Apparent association between effect size in free response anomalous cognition experiments and local sidereal time.'
const citationJournal = 'Journal of Scientific Exploration'
const citationIssue = ', 11(2), 109–122.'
const geoNames = 'GeoNames'

/** What sidereal time is, and what was (and was not) found about it: expandable. */
export function SiderealArticle() {
  const { t } = useTranslation('sidereal')
  const [open, setOpen] = useState(false)
  const moreId = useId()
  return (
    <Box component="article" aria-labelledby={`${moreId}-title`} sx={{ maxWidth: 760 }}>
      <Typography id={`${moreId}-title`} variant="h5" component="h2" gutterBottom>
        {t('article.title')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('article.solarAndSidereal')}</Typography>
      <Collapse in={open} id={moreId}>
        <Typography sx={{ mb: 2 }}>{t('article.drift')}</Typography>
        <Typography variant="h6" component="h3" gutterBottom>
          {t('article.whyTitle')}
        </Typography>
        <Typography sx={{ mb: 2 }}>{t('article.finding')}</Typography>
        <Typography sx={{ mb: 2 }}>{t('article.caution')}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {citationAuthors} {citationTitle} <i>{citationJournal}</i>
          {citationIssue}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {withElement(
            t('article.method', { source: slot }),
            <Link href="https://www.geonames.org/" target="_blank" rel="noopener noreferrer">
              {geoNames}
            </Link>,
          )}
        </Typography>
      </Collapse>
      <Button onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={moreId}>
        {open ? t('article.showLess') : t('article.readMore')}
      </Button>
    </Box>
  )
}
