// The yardstick of npm run bench:throughput: `count` streamed chat completions through the `openai`
// client, `concurrency` at a time, and nothing else (no harness, no Vitest).
// node scripts/bench/support/bare-openai-loop.ts <base URL> <count> <concurrency>
import OpenAI from 'openai'

const [baseURL, count, concurrency] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])]
if (!baseURL || !Number.isInteger(count) || !Number.isInteger(concurrency) || concurrency < 1) {
  console.error('usage: node scripts/bench/support/bare-openai-loop.ts <base URL> <count> <concurrency>')
  process.exit(2)
}

const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 })
let next = 0

async function worker(): Promise<void> {
  while (next < count) {
    const index = next++
    const stream = await client.chat.completions.create({
      model: 'bench',
      messages: [{ role: 'user', content: `Quiz ${index}: give the option number in an <ANSWER> tag.` }],
      temperature: 0.01,
      seed: 42,
      stream: true,
      stream_options: { include_usage: true },
    })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    if (!text.includes('<ANSWER>')) throw new Error(`request ${index} got no answer: ${text}`)
  }
}

await Promise.all(Array.from({ length: concurrency }, () => worker()))
