/**
 * A ref callback for a bar kept over the bottom of the window (a sticky save bar): what the
 * browser scrolls into view, a focused field or a word found, stops above the bar instead of
 * under it, through the page's scroll padding at the bar's height. Undone when the bar goes.
 */
export function scrollClearOf(bar: HTMLElement | null): (() => void) | undefined {
  if (!bar) return undefined
  const page = bar.ownerDocument.documentElement
  const fit = () => {
    page.style.scrollPaddingBottom = `${bar.offsetHeight + 8}px`
  }
  fit()
  // The bar's height follows its text's language and the screen's width.
  const observer = new ResizeObserver(fit)
  observer.observe(bar)
  return () => {
    observer.disconnect()
    page.style.removeProperty('scroll-padding-bottom')
  }
}
