import { declareBigCodeBench } from './bigcodebench.ts'

await declareBigCodeBench({ index: 5, count: 6 })
