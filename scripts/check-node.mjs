// Plain JavaScript on purpose: it must run on the old Node it warns about.
// `npm install` (postinstall) and `npm test` (pretest) run it. npm scripts run on the Node 24 that
// npm installs for this platform (the optional dependency node-<os>-<cpu>) where npm has one;
// elsewhere on the Node that runs npm, which Vitest 5 needs to be at least 22.12.
const [major, minor] = process.versions.node.split('.').map(Number)
const supported = major > 22 || (major === 22 && minor >= 12)
const failOnOldNode = process.argv.includes('--fail')

if (!supported) {
  const platform = `${process.platform}/${process.arch}`
  const withNodeFromNpm = ['linux/x64', 'linux/arm64', 'darwin/x64', 'win32/x64']
  const why = withNodeFromNpm.includes(platform)
    ? `npm installs Node 24 for ${platform} (the optional dependency node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}), but it is not installed here (--omit=optional?)`
    : `npm has no Node 24 build for ${platform} (it has one for ${withNodeFromNpm.join(', ')})`
  const message = [
    `llm-testbench needs Node 22.12 or later (Vitest 5 does); this is Node ${process.versions.node} (${process.execPath}).`,
    `${why}.`,
    'Install Node 24 (https://nodejs.org, `brew install node@24`, `nvm install 24`, `fnm install 24`), then run `npm ci` again.',
  ].join('\n')
  process.stderr.write(`\n${message}\n\n`)
  if (failOnOldNode) process.exit(1)
}
