// The SMS providers live outside this machine: their HTTP APIs are stood in for by local
// servers that record what the adapters send.
import { createServer } from 'node:http'
import type { IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { SNSClient } from '@aws-sdk/client-sns'
import { SnsSms, TwilioSms } from '../src/sms.ts'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

const servers: ReturnType<typeof createServer>[] = []
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r)))))

async function standIn(status: number, reply: string, type = 'application/json') {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
      res.writeHead(status, { 'content-type': type })
      res.end(reply)
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

describe('Twilio', () => {
  it('posts the message to the account’s Messages resource with basic auth', async () => {
    const api = await standIn(201, '{"sid":"SM1"}')
    await new TwilioSms('AC123', 'secret', '+15005550006', api.url).send(
      '+15550000002',
      '123456 is your code',
    )
    const [call] = api.seen
    expect(call?.method).toBe('POST')
    expect(call?.url).toBe('/2010-04-01/Accounts/AC123/Messages.json')
    expect(call?.headers.authorization).toBe(
      `Basic ${Buffer.from('AC123:secret').toString('base64')}`,
    )
    expect(Object.fromEntries(new URLSearchParams(call?.body))).toEqual({
      To: '+15550000002',
      From: '+15005550006',
      Body: '123456 is your code',
    })
  })

  it('turns a refusal into the spec’s “Failed to send verification code”', async () => {
    const api = await standIn(400, '{"code":21211}')
    await expect(
      new TwilioSms('AC123', 'secret', '+15005550006', api.url).send('+15550000002', 'x'),
    ).rejects.toMatchObject({
      code: 'sms_failed',
      statusCode: 503,
      message: 'Failed to send verification code',
    })
  })
})

describe('Amazon SNS', () => {
  const client = (endpoint: string) =>
    new SNSClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    })

  it('publishes a transactional SMS to the number', async () => {
    const api = await standIn(
      200,
      '<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>m-1</MessageId></PublishResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></PublishResponse>',
      'text/xml',
    )
    await new SnsSms(client(api.url)).send('+15550000002', '123456 is your code')
    const form = new URLSearchParams(api.seen[0]?.body)
    expect(form.get('Action')).toBe('Publish')
    expect(form.get('PhoneNumber')).toBe('+15550000002')
    expect(form.get('Message')).toBe('123456 is your code')
    expect([...form.values()]).toContain('Transactional')
  })

  it('turns an SNS error into sms_failed', async () => {
    const api = await standIn(
      400,
      '<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>bad</Message></Error></ErrorResponse>',
      'text/xml',
    )
    await expect(new SnsSms(client(api.url)).send('+15550000002', 'x')).rejects.toMatchObject({
      code: 'sms_failed',
    })
  })
})
