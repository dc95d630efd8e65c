import { PublishCommand, SNSClient } from '@aws-sdk/client-sns'
import { AppError } from '@crv/kit'
import type { AuthConfig } from './config.ts'

export interface SmsSender {
  readonly name: string
  send(phone: string, text: string): Promise<void>
}

export interface OutboxEntry {
  phone: string
  code: string
  sentAt: string
}

const smsFailed = () => new AppError('sms_failed', 503, 'Failed to send verification code')

/** Writes the code to the log; outside production also to an in-memory outbox for tests. */
export class ConsoleSms implements SmsSender {
  readonly name = 'console'
  readonly outbox: OutboxEntry[] = []
  private readonly log: (line: string) => void
  private readonly keepOutbox: boolean

  constructor(log: (line: string) => void, keepOutbox: boolean) {
    this.log = log
    this.keepOutbox = keepOutbox
  }

  async send(phone: string, text: string): Promise<void> {
    this.log(`SMS to ${phone}: ${text}`)
    const code = /\b(\d{6})\b/.exec(text)?.[1]
    if (this.keepOutbox && code) {
      this.outbox.push({ phone, code, sentAt: new Date().toISOString() })
      // A bounded outbox: it is a development aid, not a store.
      if (this.outbox.length > 500) this.outbox.splice(0, this.outbox.length - 500)
    }
  }
}

export class TwilioSms implements SmsSender {
  readonly name = 'twilio'
  private readonly sid: string
  private readonly token: string
  private readonly from: string
  private readonly baseUrl: string

  constructor(sid: string, token: string, from: string, baseUrl = 'https://api.twilio.com') {
    this.sid = sid
    this.token = token
    this.from = from
    this.baseUrl = baseUrl
  }

  async send(phone: string, text: string): Promise<void> {
    const res = await fetch(
      `${this.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(this.sid)}/Messages.json`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${this.sid}:${this.token}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: phone, From: this.from, Body: text }),
        signal: AbortSignal.timeout(10_000),
      },
    ).catch(() => null)
    if (!res?.ok) throw smsFailed()
  }
}

export class SnsSms implements SmsSender {
  readonly name = 'sns'
  private readonly client: SNSClient

  constructor(client: SNSClient) {
    this.client = client
  }

  async send(phone: string, text: string): Promise<void> {
    try {
      await this.client.send(
        new PublishCommand({
          PhoneNumber: phone,
          Message: text,
          MessageAttributes: {
            'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
          },
        }),
      )
    } catch {
      throw smsFailed()
    }
  }
}

export function createSmsSender(config: AuthConfig, log: (line: string) => void): SmsSender {
  switch (config.SMS_PROVIDER) {
    case 'twilio':
      return new TwilioSms(
        config.TWILIO_ACCOUNT_SID ?? '',
        config.TWILIO_AUTH_TOKEN ?? '',
        config.TWILIO_FROM ?? '',
      )
    case 'sns':
      return new SnsSms(new SNSClient(config.SNS_REGION ? { region: config.SNS_REGION } : {}))
    default:
      return new ConsoleSms(log, config.NODE_ENV !== 'production')
  }
}
