/**
 * A UUID in the forms Rust's `Uuid::from_str` takes (hyphenated, simple 32 digits, `{...}` or `urn:uuid:...`),
 * as its lower-case hyphenated form, or why not in the uuid crate's words (an event id, an incarnation).
 */

const HEX = /^[0-9a-fA-F]$/;
const GROUP_LENGTHS = [8, 4, 4, 4, 12];

export function parseUuid(text: string): { uuid: string } | { error: string } {
  let body = text;
  let offset = 0;
  if (body.startsWith('urn:uuid:')) {
    body = body.slice(9);
    offset = 9;
  } else if (body.startsWith('{') && body.endsWith('}') && body.length >= 2) {
    body = body.slice(1, -1);
    offset = 1;
  }
  const chars = [...body];
  const bad = chars.findIndex((c) => c !== '-' && !HEX.test(c));
  if (bad >= 0) return { error: `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${chars[bad]}\` at ${bad + offset + 1}` };
  const groups = body.split('-');
  if (groups.length === 1) {
    if (body.length !== 32) return { error: `invalid length: expected length 32 for simple format, found ${body.length}` };
    const h = body.toLowerCase();
    return { uuid: `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}` };
  }
  if (groups.length !== 5) return { error: `invalid group count: expected 5, found ${groups.length}` };
  for (let i = 0; i < 5; i++) {
    if (groups[i]!.length !== GROUP_LENGTHS[i]) return { error: `invalid group length in group ${i}: expected ${GROUP_LENGTHS[i]}, found ${groups[i]!.length}` };
  }
  return { uuid: body.toLowerCase() };
}
