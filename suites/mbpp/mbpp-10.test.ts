import { declareMbpp } from './mbpp.ts'

await declareMbpp({ index: 10, count: 12 })
