const english = new Intl.PluralRules('en')

/**
 * A number with its noun in the right form: "1 descriptor", "0 descriptors", "1,200
 * descriptors" (the CLDR plural rules through Intl.PluralRules, not `n === 1`).
 */
export function count(n: number, one: string, other = `${one}s`): string {
  return `${n.toLocaleString('en')} ${english.select(n) === 'one' ? one : other}`
}
