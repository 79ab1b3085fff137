// The words are English, so English plural rules pick the form; the number is written in the person's locale.
const RULES = new Intl.PluralRules('en');
const NUMBER = new Intl.NumberFormat();

/**
 * A count with its noun in the right form: `plural(1, 'message')` is "1 message", `plural(3, 'message')` is
 * "3 messages"; an irregular noun names its plural (`plural(2, 'reply', 'replies')`). The one plural helper: no
 * "(s)", no "1 messages".
 */
export function plural(count: number, one: string, other = `${one}s`): string {
  return `${NUMBER.format(count)} ${RULES.select(count) === 'one' ? one : other}`;
}
