import { useTranslation } from 'react-i18next'
import { Notice } from '../../components/notice.tsx'
import { usePageMeta } from '../../lib/use-page-meta.ts'

export function NotFoundPage() {
  usePageMeta('notFound')
  const { t } = useTranslation()
  return (
    <Notice title={t('notFound.title')} homeLink>
      {t('notFound.message')}
    </Notice>
  )
}
