import type { FileResult } from './runner.js';

const escape = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );

function testcases(file: FileResult): string[] {
  const cls = escape(`scenarios.${file.name}`);
  if (file.skipped !== null)
    return [
      `    <testcase classname="${cls}" name="(file)" time="0"><skipped message="${escape(file.skipped)}"/></testcase>`,
    ];
  if (file.error !== null)
    return [
      `    <testcase classname="${cls}" name="(setup)" time="0"><failure message="${escape(file.error)}"/></testcase>`,
    ];
  return file.steps.map((s) => {
    const open = `    <testcase classname="${cls}" name="${escape(s.name)}" time="${(s.durationMs / 1000).toFixed(3)}"`;
    if (s.ok) return `${open}/>`;
    const message = escape(s.failures.join('; '));
    return `${open}><failure message="${message}">${message}</failure></testcase>`;
  });
}

/** JUnit XML for CI: one test suite per scenario file, one test case per step. */
export function toJUnit(results: FileResult[]): string {
  const suites = results.map((file) => {
    const cases = testcases(file);
    const failures = cases.filter((c) => c.includes('<failure')).length;
    const skipped = cases.filter((c) => c.includes('<skipped')).length;
    const time = file.steps.reduce((t, s) => t + s.durationMs, 0) / 1000;
    return [
      `  <testsuite name="${escape(file.name)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="${time.toFixed(3)}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="marketplace-sandbox replay">',
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
