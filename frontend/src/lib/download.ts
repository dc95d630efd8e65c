/** Hands a file to the browser's downloads, named `fileName`. */
export function saveDownload(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // The browser has taken the blob once the click's default action has run.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
