import { useTranslation } from 'react-i18next'
import { Notice } from '../notice.tsx'

export function AccessDenied({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation()
  return (
    <Notice title={t('access.deniedTitle')} homeLink>
      {signedIn ? t('access.deniedSignedIn') : t('access.deniedSignedOut')}
    </Notice>
  )
}
