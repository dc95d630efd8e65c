import DownloadIcon from '@mui/icons-material/Download'
import { Button } from '@mui/material'
import { useTranslation } from 'react-i18next'
import type { PracticeReceipt } from '@crv/contracts/practice-receipt'
import { downloadReceipt } from '../receipt.ts'

/** "Download receipt (JSON)"; disabled while the receipt cannot be made yet (null). */
export function ReceiptButton({ receipt }: { receipt: PracticeReceipt | null }) {
  const { t } = useTranslation('practice')
  return (
    <Button
      variant="outlined"
      startIcon={<DownloadIcon />}
      disabled={!receipt}
      onClick={() => receipt && downloadReceipt(receipt)}
      sx={{ alignSelf: 'flex-start', minHeight: 44 }}
    >
      {t('session.receipt')}
    </Button>
  )
}
