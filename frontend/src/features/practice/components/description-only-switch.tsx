import { Box, FormControlLabel, Switch, Typography } from '@mui/material'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useJudgeByText } from '../preferences.ts'

/**
 * The description-only preference as a switch, with what it means for the reveal: shown at the
 * lock and at the judging (the start page has it as a checkbox), always the same value.
 */
export function DescriptionOnlySwitch() {
  const { t } = useTranslation('practice')
  const [byText, setByText] = useJudgeByText()
  const noteId = useId()
  return (
    <Box>
      <FormControlLabel
        control={
          <Switch
            checked={byText}
            onChange={(e) => setByText(e.target.checked)}
            slotProps={{ input: { 'aria-describedby': noteId } }}
          />
        }
        label={t('judge.byText')}
      />
      <Typography id={noteId} variant="body2" color="text.secondary" sx={{ ml: { xs: 0, sm: 6 } }}>
        {t(byText ? 'judge.byTextOn' : 'judge.byTextOff')}
      </Typography>
    </Box>
  )
}
