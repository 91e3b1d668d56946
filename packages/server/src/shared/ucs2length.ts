/**
 * A string's length in Unicode code points, as JSON Schema counts minLength and maxLength (an
 * emoji is one character, not two UTF-16 units). The validators built from the contracts
 * (src/generated/validators-*.ts) call it where ajv's own code calls its runtime's ucs2length,
 * which is CommonJS behind a `default` that Node and bundlers import differently; this is the
 * same count.
 */
export function ucs2length(text: string): number {
  const units = text.length;
  let length = 0;
  let at = 0;
  while (at < units) {
    length++;
    const unit = text.charCodeAt(at++);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && at < units && (text.charCodeAt(at) & 0xfc00) === 0xdc00) at++;
  }
  return length;
}
