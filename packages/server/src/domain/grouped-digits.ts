/**
 * An integer with its digits grouped by threes, as `toLocaleString('en-US')` writes it
 * (`1,000,000`), for error messages. Not `toLocaleString`: its first call loads ICU's number
 * formatting, 9-15 ms, and a message built at module load paid that at every start of the
 * server and the mock.
 */
export function groupedDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return String(value);
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.abs(value));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return sign + grouped;
}
