/** A DOM element with its attributes and children: text children are text nodes, never parsed as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | undefined> = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) if (child !== undefined && child !== false) element.append(child);
  return element;
}

/** A time of day in the viewer's locale (`14:05`), from an ISO 8601 instant. */
export function clock(instant: string | null | undefined, timeZone?: string): string {
  if (instant === null || instant === undefined) return '';
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone });
}

/** A date and time of day in the viewer's locale (`3 Nov 2026, 14:05`), from an ISO 8601 instant. */
export function dateAndClock(instant: string | null | undefined, timeZone?: string): string {
  if (instant === null || instant === undefined) return '';
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone });
}
