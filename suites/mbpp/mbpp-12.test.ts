import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 12, count: 12 })
