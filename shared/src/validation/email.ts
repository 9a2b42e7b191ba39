/** An email: non-space text, an at sign, more text, a dot and more text, no spaces. The server checks the same. */
export const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return emailPattern.test(value);
}
