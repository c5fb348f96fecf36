import { SANDBOX_ENV } from './knobs.ts'
import { warnOnce } from './warn-once.ts'

/** Names never passed to a sandboxed program, even when the user lists them. */
const SECRET_NAME =
  /API_?KEY|_KEY$|^KEY$|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|PRIVATE_?KEY|AUTH|COOKIE|SESSION|^DATABASE_URL$|_DSN$/i

/** A URL that carries a user name or password, such as `postgres://user:pass@host/db`. */
const URL_WITH_CREDENTIALS = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]+@/i

function looksSecret(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || (/_URL$|_URI$/i.test(name) && URL_WITH_CREDENTIALS.test(value))
}

export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin'

/**
 * The whole environment of a sandboxed program: a fixed allow-list, HOME set to the work dir,
 * the language's own variables, and the names listed in TESTBENCH_SANDBOX_ENV (comma-separated)
 * copied from the parent unless they look like secrets. Nothing else from the parent gets in.
 */
export function sandboxEnvironment(
  home: string,
  languageEnv: Record<string, string> = {},
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: SANDBOX_PATH,
    HOME: home,
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    PYTHONDONTWRITEBYTECODE: '1',
    ...languageEnv,
  }
  for (const name of SANDBOX_ENV.read(parent)) {
    const value = parent[name]
    if (value === undefined) continue
    if (looksSecret(name, value)) {
      warnOnce(
        `sandbox-env-secret-${name}`,
        `TESTBENCH_SANDBOX_ENV lists ${name}, which looks like a secret; sandboxed programs never get it.`,
      )
      continue
    }
    env[name] = value
  }
  return env
}
