// Empties the package's dist/ before its build (run from the package directory, as its `build` script does).
// Why: tsc never deletes the output of a source file that was removed or renamed, and such a stale module
// would be packed and published with a source map naming a file the tarball lacks.
import fs from 'node:fs';

fs.rmSync('dist', { recursive: true, force: true });
