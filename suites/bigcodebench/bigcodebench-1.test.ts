import { declareBigCodeBench } from './bigcodebench.ts'

await declareBigCodeBench({ index: 1, count: 6 })
