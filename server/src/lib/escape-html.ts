/** Text made safe inside HTML (and XML) text and attribute values: the five characters with a meaning there. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
