import { Avatar, Box, Button, Skeleton, Typography } from '@mui/material'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { preloadSignInDialog, useAuth } from './auth/index.ts'

/** The header's account corner: Sign In while signed out, the user and Sign Out while signed in. */
export function SignInControl() {
  const { status, user, openSignIn, signOut } = useAuth()
  const [signingOut, setSigningOut] = useState(false)
  const { t } = useTranslation()

  if (status === 'restoring') {
    return (
      <Skeleton
        variant="rounded"
        width={76}
        height={32}
        aria-hidden
        sx={{ bgcolor: 'rgb(255 255 255 / 0.2)', flexShrink: 0 }}
      />
    )
  }

  if (!user) {
    return (
      <Button
        color="inherit"
        variant="outlined"
        onClick={openSignIn}
        onPointerEnter={preloadSignInDialog}
        onFocus={preloadSignInDialog}
        sx={{ flexShrink: 0 }}
      >
        {t('signIn')}
      </Button>
    )
  }

  const name = user.firstName || user.displayName
  const initial = name.charAt(0).toUpperCase()
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexShrink: 0 }}>
      {/* On a narrow phone the name gives way; the avatar and Sign Out stay. */}
      <Typography
        variant="body2"
        sx={{ display: { xs: 'none', sm: 'block' }, fontWeight: 500, maxWidth: 160 }}
        noWrap
      >
        {name}
      </Typography>
      <Avatar
        src={user.photoUrl ?? undefined}
        alt={user.displayName}
        slotProps={{ img: { referrerPolicy: 'no-referrer' } }}
        sx={{ width: 32, height: 32, fontSize: 16 }}
      >
        {initial}
      </Avatar>
      <Button
        color="inherit"
        loading={signingOut}
        onClick={() => {
          setSigningOut(true)
          // Success reloads the page; a failure says so and leaves the user signed in.
          void signOut().finally(() => setSigningOut(false))
        }}
      >
        {t('signOut')}
      </Button>
    </Box>
  )
}
