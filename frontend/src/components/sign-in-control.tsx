import { Avatar, Box, Button, Tooltip, Typography } from '@mui/material'
import { useDispatch, useSelector } from 'react-redux'
import { selectUser, signedOut } from '../lib/session/session-slice.ts'

/** The header's account corner: sign-in while signed out, the user and Sign Out while signed in. */
export function SignInControl() {
  const dispatch = useDispatch()
  const user = useSelector(selectUser)

  if (!user) {
    return (
      <Tooltip title="Sign-in arrives soon">
        {/* A disabled button fires no events, so the wrapper carries the tooltip and the focus. */}
        <Box component="span" tabIndex={0} sx={{ display: 'inline-flex', borderRadius: 1 }}>
          <Button
            color="inherit"
            variant="outlined"
            disabled
            sx={{
              '&.Mui-disabled': { color: 'inherit', borderColor: 'currentcolor', opacity: 0.6 },
            }}
          >
            Sign In
          </Button>
        </Box>
      </Tooltip>
    )
  }

  const initial = (user.firstName || user.displayName).charAt(0).toUpperCase()
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Typography
        variant="body2"
        sx={{ display: { xs: 'none', sm: 'block' }, fontWeight: 500 }}
        noWrap
      >
        {user.firstName}
      </Typography>
      <Avatar
        src={user.photoUrl ?? undefined}
        alt={user.displayName}
        sx={{ width: 32, height: 32, fontSize: 16 }}
      >
        {initial}
      </Avatar>
      <Button color="inherit" onClick={() => dispatch(signedOut())}>
        Sign Out
      </Button>
    </Box>
  )
}
