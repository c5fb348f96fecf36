import { expect, test } from 'vitest'
import { sandboxEnvironment } from '../../../adapters/sandbox/environment.ts'

test('the sandbox environment is an allow-list: secrets never get in, even when listed', () => {
  const parent = {
    PATH: '/home/me/bin:/usr/bin',
    OPENAI_API_KEY: 'sk-canary',
    GITHUB_TOKEN: 'ghp-canary',
    MY_SECRET: 'canary',
    EDITOR: 'vim',
    TZ: 'Europe/Paris',
    TESTBENCH_SANDBOX_ENV: 'TZ, OPENAI_API_KEY,GITHUB_TOKEN',
  }
  const env = sandboxEnvironment('/tmp/work', { GOCACHE: '/tmp/work/.cache' }, parent)
  expect(env).toMatchObject({
    HOME: '/tmp/work',
    TZ: 'Europe/Paris',
    GOCACHE: '/tmp/work/.cache',
    PATH: '/usr/local/bin:/usr/bin:/bin',
  })
  expect(Object.values(env).join(' ')).not.toMatch(/canary|vim/)
})

test('URLs with credentials, DATABASE_URL and *_KEY, *_PASSWORD, *_CREDENTIALS never get in; a plain URL does', () => {
  const parent = {
    PROXY_URL: 'http://user:canary@proxy:8080',
    REDIS_URL: 'redis://:canary@cache:6379',
    DATABASE_URL: 'postgres://db/canary',
    SIGNING_KEY: 'canary',
    DB_PASSWORD: 'canary',
    GCP_CREDENTIALS: 'canary',
    SENTRY_SECRET: 'canary',
    DOCS_URL: 'https://example.org/docs',
    TESTBENCH_SANDBOX_ENV:
      'PROXY_URL,REDIS_URL,DATABASE_URL,SIGNING_KEY,DB_PASSWORD,GCP_CREDENTIALS,SENTRY_SECRET,DOCS_URL',
  }
  const env = sandboxEnvironment('/tmp/work', {}, parent)
  expect(env['DOCS_URL']).toBe('https://example.org/docs')
  expect(Object.values(env).join(' ')).not.toMatch(/canary/)
})
