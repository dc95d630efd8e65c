import type { RevocationCheck } from '@crv/kit'
import type { Database } from '@crv/kit/db'
import type { BotCheck } from './bot-check.ts'
import type { AuthConfig } from './config.ts'
import type { SigningKeys } from './keys.ts'
import type { CodePolicy } from './phone/phone.ts'
import type { SessionContext } from './sessions/sessions.ts'
import type { SmsSender } from './sms.ts'

/** What the auth service's areas share; built once by app.ts. */
export interface AuthServices {
  config: AuthConfig
  db: Database
  keys: SigningKeys
  sms: SmsSender
  botCheck: BotCheck
  session: SessionContext
  policy: CodePolicy
  revocations: RevocationCheck
}
