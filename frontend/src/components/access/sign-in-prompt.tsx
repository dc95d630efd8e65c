import { Alert, Button, Typography } from '@mui/material'
import { useAuth } from '../auth/index.ts'
import { PageContainer } from '../page-container.tsx'

/**
 * A page that a visitor may open but that only a signed-in person's data fills: its heading, and
 * a prompt whose button opens the sign-in.
 */
export function SignInPrompt({
  title,
  prompt,
  signIn,
}: {
  title: string
  prompt: string
  /** The button's text. */
  signIn: string
}) {
  const { openSignIn } = useAuth()
  return (
    <PageContainer>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Alert
        severity="info"
        action={
          <Button color="inherit" onClick={openSignIn}>
            {signIn}
          </Button>
        }
      >
        {prompt}
      </Alert>
    </PageContainer>
  )
}
