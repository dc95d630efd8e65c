import { useTranslation } from 'react-i18next'
import { Notice } from '../notice.tsx'

export function AccessRestricted() {
  const { t } = useTranslation()
  return (
    <Notice title={t('access.restrictedTitle')} homeLink>
      {t('access.restrictedMessage')}
    </Notice>
  )
}
