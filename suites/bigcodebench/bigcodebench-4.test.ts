import { declareBigCodeBench } from './bigcodebench.ts'

await declareBigCodeBench({ index: 4, count: 6 })
