/** An icon as MCP lists it (on a server, a tool, a prompt). */
export interface ListedIcon {
  /** A `data:image/svg+xml,` URI (the media type is in the URI, so no `mimeType` repeats it). */
  src: string;
}

/**
 * An SVG as a `data:` URI, escaped only where a URI needs it (percent signs, quotes, `#`, `<`, `>`, and
 * whitespace runs folded to one space): half the size of base64, and still a valid URI.
 */
export function svgIcon(svg: string): ListedIcon {
  const compact = svg
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/"/g, "'")
    .replace(/[%#<>]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/ /g, '%20');
  return { src: `data:image/svg+xml,${compact}` };
}
