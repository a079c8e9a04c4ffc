/**
 * Naive UI's NInput puts attributes on its wrapper; end-to-end tests need the test id on
 * the native <input>, which `input-props` reaches. Its type omits data-* attributes, hence the cast.
 */
import type { InputHTMLAttributes } from 'vue';

export function inputTestId(id: string): InputHTMLAttributes {
  return { 'data-testid': id, spellcheck: false } as InputHTMLAttributes;
}
