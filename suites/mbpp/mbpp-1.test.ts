import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 1, count: 12 })
