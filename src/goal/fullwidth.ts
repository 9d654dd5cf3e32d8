/**
 * Chinese text writes punctuation in full width (U+FF01–U+FF5E: ,:;()!? and friends). The readers of
 * reports and goal documents match ASCII forms only; this maps the full-width forms onto them. Each
 * character stays one UTF-16 unit, so positions found in the mapped text hold in the original.
 */
export function asciiPunctuation(text: string): string {
  return text.replace(/[\uFF01-\uFF5E]/g, (character) =>
    String.fromCharCode(character.charCodeAt(0) - 0xfee0),
  );
}
