import { Button, Stack, Typography } from '@mui/material'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../config/paths.ts'
import { PageContainer } from './page-container.tsx'

type NoticeProps = {
  title: string
  children: ReactNode
  /** Adds a 'Return to Home' button. */
  homeLink?: boolean
}

/** A page-level message: a heading, a line of text and optionally the way back home. */
export function Notice({ title, children, homeLink = false }: NoticeProps) {
  const { t } = useTranslation()
  return (
    <PageContainer>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 4, sm: 8 } }}>
        <Typography variant="h4" component="h1">
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ maxWidth: 520 }}>
          {children}
        </Typography>
        {homeLink ? (
          <Button variant="contained" component={RouterLink} to={paths.home}>
            {t('returnHome')}
          </Button>
        ) : null}
      </Stack>
    </PageContainer>
  )
}
