/** A repository reference from a manifest as a browsable https URL (null when it is not one). */
export function normalizeRepositoryUrl(value: string): string | null {
  let url = value.trim();
  const shorthand = /^(github|gitlab|bitbucket):([\w.-]+\/[\w.-]+)$/.exec(url);
  if (shorthand !== null) {
    const host = { github: 'github.com', gitlab: 'gitlab.com', bitbucket: 'bitbucket.org' }[
      shorthand[1] as 'github'
    ];
    url = `https://${host}/${shorthand[2]}`;
  } else if (/^[\w.-]+\/[\w.-]+$/.test(url)) {
    url = `https://github.com/${url}`;
  }
  const scp = /^git@([\w.-]+):(.+)$/.exec(url);
  if (scp !== null) url = `https://${scp[1]}/${scp[2]}`;
  url = url
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^ssh:\/\/git@/, 'https://');
  url = url
    .replace(/^http:\/\//, 'https://')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  if (!/^https:\/\/[^\s<>"'`]+$/.test(url)) return null;
  try {
    const parsed = new URL(url);
    if (parsed.username !== '' || parsed.password !== '') return null;
  } catch {
    return null;
  }
  return url;
}
