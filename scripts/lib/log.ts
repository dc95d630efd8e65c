// Turns the children's pino JSON lines into one readable, prefixed line each.
const colours = [36, 35, 33, 32, 34, 96, 95, 93]
const levels: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
}
const useColour = process.stdout.isTTY && !process.env.NO_COLOR

export function prefixer(name: string, index: number, width: number) {
  const label = name.padEnd(width)
  const tag = useColour
    ? `\x1b[${colours[index % colours.length]}m${label}\x1b[0m │ `
    : `${label} │ `
  return (line: string) => {
    if (!line.trim()) return
    process.stdout.write(`${tag}${format(line)}\n`)
  }
}

function format(line: string): string {
  if (!line.startsWith('{')) return line
  try {
    const entry = JSON.parse(line) as Record<string, unknown>
    const { level, time, msg, pid: _p, hostname: _h, service: _s, reqId, ...rest } = entry
    const when = typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : ''
    const lvl = levels[Number(level)] ?? String(level ?? '')
    if (msg === 'request' && typeof rest.method === 'string') {
      const { method, url, status, ms, user } = rest
      return `${when} ${lvl.padEnd(5)} ${String(method)} ${String(url)} ${String(status)} ${String(ms)}ms${user ? ` user=${String(user)}` : ''}${reqId ? ` id=${String(reqId).slice(0, 8)}` : ''}`
    }
    const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : ''
    return `${when} ${lvl.padEnd(5)} ${String(msg ?? '')}${extra}`
  } catch {
    return line
  }
}

export function launcherLog(message: string) {
  process.stdout.write(`${useColour ? '\x1b[1m' : ''}crv${useColour ? '\x1b[0m' : ''} ${message}\n`)
}
