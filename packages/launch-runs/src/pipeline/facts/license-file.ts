/** Recognises a LICENSE file's license from its well-known wording; returns the SPDX id and the line. */
export function detectLicense(lines: readonly string[]): { spdx: string; line: number } | undefined {
  const text = lines.join('\n');
  const lineOf = (pattern: RegExp): number => {
    const index = lines.findIndex((line) => pattern.test(line));
    return index === -1 ? 1 : index + 1;
  };
  const rules: [RegExp, string, RegExp][] = [
    [/GNU LESSER GENERAL PUBLIC LICENSE[\s\S]*Version 3/i, 'LGPL-3.0', /GNU LESSER GENERAL PUBLIC LICENSE/i],
    [
      /GNU LESSER GENERAL PUBLIC LICENSE[\s\S]*Version 2\.1/i,
      'LGPL-2.1',
      /GNU LESSER GENERAL PUBLIC LICENSE/i,
    ],
    [/GNU AFFERO GENERAL PUBLIC LICENSE/i, 'AGPL-3.0', /GNU AFFERO GENERAL PUBLIC LICENSE/i],
    [/GNU GENERAL PUBLIC LICENSE[\s\S]*Version 3/i, 'GPL-3.0', /GNU GENERAL PUBLIC LICENSE/i],
    [/GNU GENERAL PUBLIC LICENSE[\s\S]*Version 2/i, 'GPL-2.0', /GNU GENERAL PUBLIC LICENSE/i],
    [/Apache License[\s\S]*Version 2\.0/i, 'Apache-2.0', /Apache License/i],
    [/Mozilla Public License,? (Version|v\.?) ?2\.0/i, 'MPL-2.0', /Mozilla Public License/i],
    [/^\s*MIT License/im, 'MIT', /MIT License/i],
    [/Permission is hereby granted, free of charge/i, 'MIT', /Permission is hereby granted/i],
    [/^\s*ISC License/im, 'ISC', /ISC License/i],
    [
      /Permission to use, copy, modify, and\/or distribute this software/i,
      'ISC',
      /Permission to use, copy, modify/i,
    ],
    [
      /This is free and unencumbered software released into the public domain/i,
      'Unlicense',
      /free and unencumbered/i,
    ],
    [
      /Redistribution and use in source and binary forms[\s\S]*Neither the name/i,
      'BSD-3-Clause',
      /Redistribution and use/i,
    ],
    [/Redistribution and use in source and binary forms/i, 'BSD-2-Clause', /Redistribution and use/i],
  ];
  for (const [test, spdx, line] of rules) if (test.test(text)) return { spdx, line: lineOf(line) };
  return undefined;
}
