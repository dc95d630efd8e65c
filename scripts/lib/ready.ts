import type { ChildProcess } from 'node:child_process'

export const READY_LINE = 'CRV Training is ready at'

/**
 * Resolves when a launched app prints its ready line; rejects with everything it printed when
 * it exits first or is not ready in time.
 */
export function untilReady(app: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => reject(new Error(`app not ready in ${timeoutMs / 1000} s:\n${output}`)),
      timeoutMs,
    )
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(READY_LINE)) {
        clearTimeout(timer)
        resolve()
      }
    }
    app.stdout?.on('data', onData)
    app.stderr?.on('data', onData)
    app.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`app exited with ${code}:\n${output}`))
    })
  })
}
