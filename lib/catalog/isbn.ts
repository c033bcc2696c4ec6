/** ISBN-10/13 and GTIN check digits, written out so the rules are visible and tested. */

const digitsOf = (value: string) => [...value].map((c) => (c === "X" ? 10 : Number(c)));

/** Strips "ISBN", "ISBN-13:", spaces and hyphens; upper-cases a trailing x. */
export function compactIsbn(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/^ISBN(?:-1[03])?:?\s*/, "")
    .replace(/[\s-]/g, "");
}

export function isValidIsbn10(value: string): boolean {
  if (!/^\d{9}[\dX]$/.test(value)) return false;
  const sum = digitsOf(value).reduce((acc, d, i) => acc + (10 - i) * d, 0);
  return sum % 11 === 0;
}

/** Mod-10 with weights 1,3,1,3… from the left for 13 digits (the GTIN rule counted from the right). */
export function isValidGtin(value: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(value)) return false;
  const digits = digitsOf(value).reverse();
  const sum = digits.slice(1).reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === digits[0];
}

export function isValidIsbn13(value: string): boolean {
  return /^97[89]\d{10}$/.test(value) && isValidGtin(value);
}

function isbn13CheckDigit(first12: string): number {
  const sum = digitsOf(first12).reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10;
}

/** The canonical form we store: ISBN-13 digits, or null when the input is not a valid ISBN. */
export function toIsbn13(raw: string): string | null {
  const value = compactIsbn(raw);
  if (isValidIsbn10(value)) {
    const first12 = `978${value.slice(0, 9)}`;
    return `${first12}${isbn13CheckDigit(first12)}`;
  }
  return isValidIsbn13(value) ? value : null;
}

/** Only 978-prefixed ISBN-13s have an ISBN-10 form. */
export function toIsbn10(raw: string): string | null {
  const isbn13 = toIsbn13(raw);
  if (!isbn13?.startsWith("978")) return null;
  const first9 = isbn13.slice(3, 12);
  const sum = digitsOf(first9).reduce((acc, d, i) => acc + (10 - i) * d, 0);
  const check = (11 - (sum % 11)) % 11;
  return `${first9}${check === 10 ? "X" : String(check)}`;
}
